import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Community } from '../../src/communities/entities/community.entity.js';
import { In } from 'typeorm';
import { findByIdsFast, findOneFast } from '../../src/database/find-one-fast.js';
import { QuestEvent } from '../../src/quest-events/entities/quest-event.entity.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { loginToken } from '../helpers/auth.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { givenEvent, type TestEvent } from '../helpers/quests.js';
import { givenItem, givenListing, givenRequirement, purchase } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { onStatements } from '../helpers/pg-statements.js';

/**
 * SQL statements per request on the list endpoints, counted at the pg client for the statements
 * that run on behalf of one HTTP request (AsyncLocalStorage around the server's request handler,
 * so the background workers' statements are not counted). A list must cost the same number of
 * statements whatever its page size: a count that grows with `limit` is an N+1.
 */
describe('SQL statements per request on the list endpoints (no N+1)', () => {
  // No read cache: every request here must run its statements (what grows with the page size is
  // the point, not what a cache saves; the caches have their own tests).
  const t = useTestApp({ MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false', READ_CACHE_MS: '0' });
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let xp: { id: string; slug: string };
  let event: TestEvent;
  let users: TestUser[];
  const als = new AsyncLocalStorage<{ n: number; tenantReads: number; sql: string[] }>();
  let last: { n: number; tenantReads: number; sql: string[] } = { n: 0, tenantReads: 0, sql: [] };
  const N = 21;

  beforeAll(async () => {
    // Count at the pg Client the app's pool really uses.
    await onStatements(t.dataSource, (sql) => {
      const store = als.getStore();
      if (!store) return;
      // The tenant of a request is cached for 5 s from when it was read (src/tenants/tenants.service.ts),
      // whatever the page size: a request finds it expired or not by the clock alone, so its read
      // is counted apart (and at most one per request, below).
      if (sql.startsWith('SELECT "Tenant"."id" AS "Tenant_id"')) store.tenantReads++;
      else store.n++;
      store.sql.push(sql.slice(0, 120));
    });
    const server = t.app.getHttpServer() as Server;
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const store = { n: 0, tenantReads: 0, sql: [] as string[] };
      // What ran until the answer was sent (a later statement of the request's context is not its cost).
      res.on('finish', () => (last = { ...store, sql: [...store.sql] }));
      als.run(store, () => listeners.forEach((l) => l.call(server, req, res)));
    });

    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
    xp = await givenResourceType(t, tenant, community.id);
    event = await givenEvent(t, tenant, community);
    users = [];
    for (let i = 0; i < N; i++) users.push(await givenUser(t, tenant));
    const admin = adminApi(t, tenant);
    for (const [i, u] of users.entries()) {
      expect((await grant(t, tenant, u.userId, xp.id, 10 + i)).status).toBe(201);
      expect((await grant(t, tenant, u.userId, event.scoreTypeId, 5 + i)).status).toBe(201);
      expect(
        (
          await admin.post('/v1/admin/quests', {
            communityId: community.id,
            name: `Quest ${i}`,
            type: 'social',
            tags: ['daily', `t${i % 3}`],
            featured: i % 4 === 0,
          })
        ).status,
      ).toBe(201);
    }
    for (let i = 1; i < N; i++) await givenEvent(t, tenant, community, { features: ['score-based'] });
    const requirement = await givenRequirement(t, tenant);
    // Notifications of the first user (the inbox lists the community's and the account-wide ones).
    await t.dataSource.query(
      `INSERT INTO notifications (tenant_id, user_id, community_id, type, title, data, created_at)
       SELECT $1, $2, $3, 'system', 'Notice ' || g, '{}'::jsonb, now() - g * interval '1 minute' FROM generate_series(1, $4::int) g`,
      [tenant.id, users[0].userId, community.id, N],
    );
    // Seasons of two resource types, alternating.
    const gems = await givenResourceType(t, tenant, community.id);
    await t.dataSource.query(
      `INSERT INTO seasons (tenant_id, community_id, resource_type_id, name, starts_at, ends_at, created_at)
       SELECT $1, $2, CASE WHEN g % 2 = 0 THEN $3 ELSE $4 END::uuid, 'Season ' || g, now() + g * interval '1 day', now() + (g + 1) * interval '1 day', now()
       FROM generate_series(1, $5::int) g`,
      [tenant.id, community.id, xp.id, gems.id, N],
    );
    for (let i = 0; i < N; i++)
      await givenListing(t, tenant, {
        communityId: community.id,
        kind: 'resource',
        resourceTypeId: xp.id,
        quantity: 1,
        price: [{ resourceTypeId: xp.id, amount: 1 }],
        requirementIds: [requirement.id],
      });
  });

  let lastItems = 0;
  /** Statements of one GET as the first user; the status must be 200. */
  const statements = async (path: string, user = users[0]): Promise<number> => {
    const res = await t.http().get(path).set('Authorization', user.auth).set('X-Tenant-Id', tenant.id);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    lastItems = Array.isArray(res.body.items) ? res.body.items.length : 0;
    expect(last.n).toBeGreaterThan(0);
    expect(last.tenantReads).toBeLessThanOrEqual(1);
    return last.n;
  };

  /** The same list with page sizes 1 and 20 (really holding 1 and 20 items): equal statement counts, at most `max`. */
  const expectConstant = async (path: (limit: number) => string, max: number) => {
    const one = await statements(path(1));
    expect({ path: path(1), items: lastItems }).toEqual({ path: path(1), items: 1 });
    const twenty = await statements(path(20));
    expect({ path: path(20), items: lastItems }).toEqual({ path: path(20), items: 20 });
    expect({ path: path(20), statements: twenty }).toEqual({ path: path(20), statements: one });
    expect(twenty).toBeLessThanOrEqual(max);
  };

  it('community leaderboard: the same statements for 1 and 20 entries', async () => {
    await expectConstant((limit) => `/v1/community/${community.id}/leaderboard/${xp.slug}?limit=${limit}`, 3);
  });

  it('community ranking: the same statements for 0 and 10 neighbours', async () => {
    const none = await statements(`/v1/community/${community.id}/ranking/${xp.slug}?neighbours=0`, users[10]);
    const ten = await statements(`/v1/community/${community.id}/ranking/${xp.slug}?neighbours=10`, users[10]);
    expect(ten).toBe(none);
    expect(ten).toBeLessThanOrEqual(3);
  });

  it('quest event leaderboard: the same statements for 1 and 20 entries', async () => {
    await expectConstant((limit) => `/v1/quest-event/${event.id}/leaderboard?limit=${limit}`, 3);
  });

  it('quest events with filters: the same statements for 1 and 20 events', async () => {
    await expectConstant((limit) => `/v1/quest-event?limit=${limit}`, 5);
    // one more: the caller's registered events, read first for `participating`
    await expectConstant(
      (limit) => `/v1/quest-event?limit=${limit}&participating=false&filter[containerId]=${community.id}&filter[features]=score-based`,
      6,
    );
  });

  it('community quests with filters: the same statements for 1 and 20 quests', async () => {
    await expectConstant((limit) => `/v1/community/${community.id}/quests?tags=&questTypes=&featured=&query=&page=1&limit=${limit}`, 5);
    await expectConstant(
      (limit) => `/v1/community/${community.id}/quests?tags=daily&questTypes=social&featured=&query=Quest&page=1&limit=${limit}`,
      5,
    );
  });

  it('store listings, enriched with requirements: the same statements for 1 and 20 listings', async () => {
    const plain = await statements(`/v1/store/listings?containerId=${community.id}&enrichRequirements=false&limit=20`);
    expect(plain).toBeLessThanOrEqual(6);
    await expectConstant((limit) => `/v1/store/listings?containerId=${community.id}&enrichRequirements=true&limit=${limit}`, 10);
  });

  it('notifications: the same statements for 1 and 20 notifications', async () => {
    await expectConstant((limit) => `/v1/user/notifications?containerId=${community.id}&limit=${limit}`, 4);
  });

  it('seasons of several resource types: the same statements for 1 and 20 seasons', async () => {
    await expectConstant((limit) => `/v1/community/${community.id}/seasons?limit=${limit}`, 4);
  });

  it('a returning token login is one statement (no transaction); a first login is a transaction', async () => {
    const subjectId = `sub-${Date.now()}`;
    const login = async () => {
      const token = await loginToken(t, tenant.sharedSecret, { subjectId, handle: 'counted' });
      const res = await t.http().post('/v1/user/auth/providerB/login').set('X-Tenant-Id', tenant.id).send({ token });
      expect(res.status).toBe(200);
      // The expired nonces' purge runs on about one login in a hundred, on its own.
      const sql = last.sql.filter((q) => !q.startsWith('DELETE FROM used_nonces'));
      return { n: sql.length, sql };
    };
    const first = await login();
    expect(first.sql[0]).toMatch(/^WITH i AS/); // the one-statement try finds no identity
    expect(first.sql).toContain('START TRANSACTION');
    const again = await login();
    expect(again).toEqual({ n: 1, sql: [expect.stringMatching(/^WITH i AS \(SELECT user_id FROM identities/)] });
    // A replayed token changes nothing and is refused from the same one statement.
    const token = await loginToken(t, tenant.sharedSecret, { subjectId, handle: 'counted' });
    expect((await t.http().post('/v1/user/auth/providerB/login').set('X-Tenant-Id', tenant.id).send({ token })).status).toBe(200);
    const replay = await t.http().post('/v1/user/auth/providerB/login').set('X-Tenant-Id', tenant.id).send({ token });
    expect({ status: replay.status, error: replay.body.error, sql: last.sql }).toEqual({
      status: 401,
      error: 'login_token_replayed',
      sql: [expect.stringMatching(/^WITH i AS/)],
    });
  });

  // The purchase's events are written by its own statement (the outbox's CTEs after the
  // function's), so the purchase is one autocommit statement with its events.
  it('a purchase of an item listing without requirements is the listing read and one statement of the function and its events; a replay and a refusal write no event', async () => {
    // The outbox writes only what a sink takes: a subscription takes every event of the tenant.
    await subscribeToEveryEvent(t.dataSource, tenant.id);
    const events = async () =>
      Number((await t.dataSource.query('SELECT count(*) AS n FROM outbox_events WHERE tenant_id = $1', [tenant.id]))[0].n);
    const buyer = users[1]; // holds 11 xp
    const item = await givenItem(t, tenant, community.id);
    const listing = await givenListing(t, tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: xp.id, amount: 2 }],
      totalSupply: 100,
    });
    const buy = (body: Record<string, unknown>) => purchase(t, buyer, listing.id, body).set('X-Tenant-Id', tenant.id);
    const first = await buy({ nonce: 'counted-1' });
    expect({ status: first.status, replayed: first.body.replayed, sql: last.sql }).toEqual({
      status: 201,
      replayed: false,
      sql: [
        expect.stringMatching(/^SELECT l\.id, l\.created_at, /),
        expect.stringMatching(/^WITH r AS \(SELECT .* FROM store_purchase_item\(/),
      ],
    });
    const afterFirst = await events();
    expect(afterFirst).toBeGreaterThanOrEqual(3); // the grant, the debit, the purchase
    // A replay: the function finds the nonce taken (writes nothing), then the purchase is read.
    const again = await buy({ nonce: 'counted-1' });
    expect({ status: again.status, replayed: again.body.replayed, id: again.body.id }).toEqual({
      status: 201,
      replayed: true,
      id: first.body.id,
    });
    expect(await events()).toBe(afterFirst);
    // A refusal is one of the function's own (nothing written, no event), worded by the store.
    const poor = users[0]; // holds 10 xp
    await t.dataSource.query('UPDATE resource_balances SET balance = 1 WHERE user_id = $1 AND resource_type_id = $2', [poor.userId, xp.id]);
    await t.dataSource.query(
      'INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, created_at) VALUES ($1, $2, $3, -9, 0, $4, now())',
      [tenant.id, xp.id, poor.userId, 'test_adjust'],
    );
    const refused = await purchase(t, poor, listing.id, { nonce: 'counted-2' }).set('X-Tenant-Id', tenant.id);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 409, error: 'insufficient_balance' });
    expect(await events()).toBe(afterFirst);
  });

  it('a grant is one statement without a transaction, its event row written by it with the kind and the balance after', async () => {
    // A tenant of its own; made last, as a new tenant makes the next request of every tenant read its tenant again.
    const quiet = await t.givenTenant();
    const c = await givenCommunity(t, quiet);
    const gems = await givenResourceType(t, quiet, c.id, { slug: 'gems', name: 'Gems', kind: 'scoped' });
    const u = await givenUser(t, quiet);
    const credited = async () =>
      (await t.dataSource.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND type = 'resource.credited'`, [quiet.id])).map(
        (r: { payload: unknown }) => r.payload,
      );
    // No subscription: the event is not written.
    expect((await grant(t, quiet, u.userId, gems.id, 5)).status).toBe(201);
    expect(last.sql).toEqual([expect.stringMatching(/^WITH t AS \(SELECT EXISTS \(SELECT 1 FROM users/)]);
    expect(await credited()).toEqual([]);
    // With one, the same one statement writes it (the outbox's CTEs in it).
    await subscribeToEveryEvent(t.dataSource, quiet.id);
    const res = await grant(t, quiet, u.userId, gems.id, 7);
    expect({ status: res.status, balance: res.body.balance, sql: last.sql }).toEqual({
      status: 201,
      balance: 12,
      sql: [expect.stringMatching(/^WITH t AS \(SELECT EXISTS \(SELECT 1 FROM users/)],
    });
    expect(await credited()).toEqual([
      { userId: u.userId, resourceTypeId: gems.id, kind: 'scoped', amount: 7, reason: 'test', reference: null, balance: 12 },
    ]);
    // A replay and a refused grant are the same one statement, and write no event.
    const key = 'counted-grant';
    expect((await grant(t, quiet, u.userId, gems.id, 1, key)).status).toBe(201);
    const replay = await grant(t, quiet, u.userId, gems.id, 1, key);
    expect({ status: replay.status, replayed: replay.body.replayed, balance: replay.body.balance }).toEqual({
      status: 201,
      replayed: true,
      balance: 13,
    });
    const unknown = await grant(t, quiet, '00000000-0000-4000-8000-000000000000', gems.id, 1);
    expect({ status: unknown.status, error: unknown.body.error, sql: last.sql }).toEqual({
      status: 404,
      error: 'user_not_found',
      sql: [expect.stringMatching(/^WITH t AS/)],
    });
    expect((await credited()).length).toBe(2);
  });

  it('findOneFast reads the same entity as findOneBy', async () => {
    const em = t.dataSource.manager;
    const slow = await em.findOneBy(Community, { tenantId: tenant.id, id: community.id });
    const fast = await findOneFast(em, Community, { tenantId: tenant.id, id: community.id });
    expect(fast).toBeInstanceOf(Community);
    expect(fast).toEqual(slow);
    expect(await findOneFast(em, Community, { tenantId: tenant.id, slug: 'no-such-community' })).toBeNull();
    await t.dataSource.transaction(async (tx) =>
      expect(await findOneFast(tx, Community, { tenantId: tenant.id, slug: community.slug })).toEqual(slow),
    );
  });

  it('findByIdsFast reads the same entities as findBy', async () => {
    const em = t.dataSource.manager;
    const ids = (await em.query('SELECT id FROM quest_events WHERE tenant_id = $1 LIMIT 5', [tenant.id])).map((r: { id: string }) => r.id);
    expect(ids.length).toBe(5);
    const slow = await em.findBy(QuestEvent, { id: In(ids) });
    const fast = await findByIdsFast(em, QuestEvent, [...ids, '00000000-0000-4000-8000-000000000000']);
    const byId = (xs: QuestEvent[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
    expect(fast.every((e) => e instanceof QuestEvent)).toBe(true);
    expect(byId(fast)).toEqual(byId(slow));
    expect(await findByIdsFast(em, QuestEvent, [])).toEqual([]);
  });
});
