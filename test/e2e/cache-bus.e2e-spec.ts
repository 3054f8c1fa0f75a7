import { jest } from '@jest/globals';
import { CacheFactory } from '../../src/common/cache/cache-factory.js';
import { CacheBus } from '../../src/database/cache-bus.js';
import type { DedicatedConnection } from '../../src/database/pg-connections.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { createTwoTestApps, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * Two instances of the service on one database, each with its read caches (READ_CACHE_MS far
 * longer than the test, and a clock that never moves, so nothing expires): what one instance
 * writes shows in the other's cached reads because CacheBus carries the drops, not because a
 * value aged out.
 */
describe('read caches across instances (CacheBus: LISTEN/NOTIFY)', () => {
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let xp: { id: string; slug: string };
  let players: TestUser[];

  const env = { READ_CACHE_MS: '60000', MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' };

  const communityOn = async (app: TestApp, user: TestUser) => {
    const res = await app.http().get(`/v1/community/${community.id}`).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    return res.body as { name: string; memberCount: number };
  };
  const topOn = async (app: TestApp) => {
    const res = await app.http().get(`/v1/community/${community.id}/leaderboard/${xp.slug}?limit=1`).set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(200);
    return (res.body as { items: { userId: string; amount: number; displayName: string }[] }).items[0];
  };

  /** The bus's own connection of an instance (private: the tests reach its NOTIFY and its backend). */
  const busConnection = (app: TestApp): DedicatedConnection => {
    const bus: unknown = app.app.get(CacheBus);
    return (bus as { connection: DedicatedConnection }).connection;
  };
  /** Makes the next NOTIFY of `app`'s bus fail, as on a connection that just died. */
  const failNextNotify = (app: TestApp) => {
    const connection = busConnection(app);
    const query = connection.query.bind(connection);
    let failed = false;
    return jest.spyOn(connection, 'query').mockImplementation((text, values, timeoutMs) => {
      if (!failed && text.includes('pg_notify')) {
        failed = true;
        return Promise.reject(new Error('injected: connection lost'));
      }
      return query(text, values, timeoutMs);
    });
  };
  /** Waits until B's cached community bears `name`. */
  const heardOnB = (name: string) =>
    until(
      () => communityOn(b, players[0]),
      (c) => c.name === name,
    );
  /** Renames the community through `app`, and checks that B has not heard of it after a while. */
  const renameUnheard = async (app: TestApp, name: string) => {
    const before = await communityOn(b, players[0]);
    expect((await adminApi(app, tenant).patch(`/v1/admin/communities/${community.id}`, { name })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await communityOn(b, players[0])).toEqual(before);
  };

  beforeAll(async () => {
    // Both listen before the test writes.
    [a, b] = await createTwoTestApps(env);
    tenant = await a.givenTenant();
    community = await givenCommunity(a, tenant);
    xp = await givenResourceType(a, tenant, community.id);
    players = [await givenUser(a, tenant), await givenUser(a, tenant)];
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("shows a join through one instance in the other's cached community (member count)", async () => {
    const before = await communityOn(b, players[0]);
    expect(await communityOn(b, players[0])).toEqual(before); // cached now
    const joined = await a.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', players[0].auth);
    expect(joined.status).toBe(201);
    await until(
      () => communityOn(b, players[1]),
      (c) => c.memberCount === before.memberCount + 1,
    );
    // The writer's own instance has it at once.
    expect((await communityOn(a, players[1])).memberCount).toBe(before.memberCount + 1);
  });

  it("shows an edit through one instance in the other's cached community", async () => {
    await communityOn(b, players[0]);
    expect((await adminApi(a, tenant).patch(`/v1/admin/communities/${community.id}`, { name: 'Renamed on A' })).status).toBe(200);
    await heardOnB('Renamed on A');
  });

  it('sends a drop whose NOTIFY failed again with the next drop', async () => {
    const spy = failNextNotify(a);
    try {
      await renameUnheard(a, 'Renamed, first NOTIFY lost');
      // Any later drop of A takes the lost one with it: a grant, which drops other caches than the community's.
      await grant(a, tenant, (await givenUser(a, tenant)).userId, xp.id, 1).expect(201);
      await heardOnB('Renamed, first NOTIFY lost');
    } finally {
      spy.mockRestore();
    }
  });

  it('sends a drop whose NOTIFY failed again once its connection is back', async () => {
    const spy = failNextNotify(a);
    try {
      await renameUnheard(a, 'Renamed, sent after the reconnection');
      // A's bus connection dies (B's stays up, so B's caches are not cleared by a reconnection of its own).
      const [{ pid }] = (await busConnection(a).query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      await a.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      await heardOnB('Renamed, sent after the reconnection');
    } finally {
      spy.mockRestore();
    }
  });

  it('sends the drops of a burst of writes in one NOTIFY', async () => {
    const onA = a.app.get(CacheFactory).create<never, { v: number }>({ name: 'burst test' });
    const onB = b.app.get(CacheFactory).create<never, { v: number }>({ name: 'burst test' });
    const scopes = Array.from({ length: 20 }, (_, i) => `scope-${i}`);
    const keptOnB = () => Promise.resolve(scopes.filter((s) => onB.lookup(s, ['k']).missing.length === 0).length);
    for (const s of scopes) onB.lookup(s, ['k']).store(new Map([['k', { v: 1 }]]));
    expect(await keptOnB()).toBe(scopes.length);
    const queries = jest.spyOn(busConnection(a), 'query');
    try {
      // As the commits of concurrent writes do: one after the other, a few in each tick.
      for (const s of scopes) {
        onA.drop(s);
        if (s.endsWith('5')) await new Promise((r) => setImmediate(r));
      }
      await until(keptOnB, (n) => n === 0);
      expect(queries.mock.calls.filter(([text]) => text.includes('pg_notify'))).toHaveLength(1);
    } finally {
      queries.mockRestore();
    }
  });

  it("shows a grant through one instance in the other's cached leaderboard page", async () => {
    await grant(a, tenant, players[0].userId, xp.id, 10).expect(201);
    await until(
      () => topOn(b),
      (top) => top?.userId === players[0].userId,
    );
    const cached = await topOn(b);
    expect(await topOn(b)).toEqual(cached);
    await grant(a, tenant, players[1].userId, xp.id, 50).expect(201);
    await until(
      () => topOn(b),
      (top) => top.userId === players[1].userId && top.amount === 50,
    );
  });

  it('serves the cached page while only the database changed behind its back, until a write through an instance drops it', async () => {
    const cached = await topOn(b);
    // Not through the service: no instance hears of it, so B keeps its page (the cache is real).
    await a.dataSource.query('UPDATE users SET display_name = $1 WHERE id = $2', ['Renamed behind', cached.userId]);
    await topOn(a);
    expect(await topOn(b)).toEqual(cached);
    // A move below the page's scores (players[0]: 10 -> 11, the page shows 50) leaves it cached.
    await grant(a, tenant, players[0].userId, xp.id, 1).expect(201);
    expect(await topOn(a)).toEqual({ ...cached, displayName: 'Renamed behind' });
    expect(await topOn(b)).toEqual(cached);
    // A move across them drops it: B reads the page again, with the name.
    await grant(a, tenant, cached.userId, xp.id, 1).expect(201);
    await until(
      () => topOn(b),
      (top) => top.displayName === 'Renamed behind' && top.amount === cached.amount + 1,
    );
  });
});
