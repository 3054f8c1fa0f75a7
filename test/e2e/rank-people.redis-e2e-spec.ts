import { jest } from '@jest/globals';
import { LeaderboardReadModel } from '../../src/resources/leaderboard.read-model.js';
import { RankStore } from '../../src/resources/rank-store.js';
import type { RedisRankStore } from '../../src/resources/redis-rank-store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { givenItem, givenListing, purchase } from '../helpers/store.js';
import { createTwoTestApps, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * What a Redis rank read takes from PostgreSQL (names of the listed users, the reader's own
 * amounts) is cached per process (RankPeople). Two instances on one database and one Redis, with
 * read caches that never expire during the test: a warm ranking reads no SQL at all, and every
 * change shows in the other instance's next reads because the drops travel, not because values aged out.
 */
describe('names and own amounts of Redis rank reads, cached across instances', () => {
  let server: RedisServer;
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string; slug: string };
  let players: TestUser[];

  beforeAll(async () => {
    server = await startRedisServer();
    const env = { REDIS_URL: server.url, READ_CACHE_MS: '60000', MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' };
    [a, b] = await createTwoTestApps(env);
    tenant = await a.givenTenant();
    c = await givenCommunity(a, tenant);
    xp = await givenResourceType(a, tenant, c.id);
    players = [];
    for (let i = 0; i < 4; i++) players.push(await givenUser(a, tenant));
    for (const [i, p] of players.entries()) await grant(a, tenant, p.userId, xp.id, 10 * (i + 1)).expect(201);
    // Both instances serve the board from Redis before the tests look.
    for (const app of [a, b]) {
      const store = app.app.get<RankStore, RedisRankStore>(RankStore);
      await until(async () => {
        await store.drain();
        return store.redisLeaderboard(xp.id, { page: 1, offset: 0, limit: 1 });
      }, Boolean);
    }
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await server?.close();
  });

  type Ranking = {
    rank: number | null;
    amount: number;
    balance: number;
    above: { userId: string; displayName: string | null; handle: string }[];
    below: { userId: string; displayName: string | null }[];
  };
  const ranking = async (app: TestApp, p: TestUser) => {
    const res = await app.http().get(`/v1/community/${c.id}/ranking/${xp.slug}?neighbours=3`).set('Authorization', p.auth);
    expect(res.status).toBe(200);
    return res.body as Ranking;
  };
  const page = async (app: TestApp) => {
    const res = await app.http().get(`/v1/community/${c.id}/leaderboard/${xp.slug}?limit=10`).set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(200);
    return res.body as { items: { userId: string; displayName: string | null; amount: number }[] };
  };
  /** Calls of the one statement a Redis rank read may need, on instance `app`, while `fn` runs. */
  const statementsDuring = async (app: TestApp, fn: () => Promise<unknown>) => {
    const spy = jest.spyOn(app.app.get(LeaderboardReadModel), 'people');
    try {
      await fn();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  };

  it('serves a warm ranking and a warm page without a statement, and a cold one with one', async () => {
    // players[0] is last (10), its neighbours are the three others: their names and its own
    // amounts in one statement; then the page lacks only players[0]'s name.
    expect(await statementsDuring(b, () => ranking(b, players[0]))).toBe(1);
    expect(await statementsDuring(b, () => page(b))).toBe(1);
    // The page straight from the store (the route keeps whole pages in a cache of its own).
    const store = b.app.get<RankStore, RedisRankStore>(RankStore);
    const warm = await statementsDuring(b, async () => {
      await ranking(b, players[0]);
      expect((await store.redisLeaderboard(xp.id, { page: 1, offset: 0, limit: 10 }))?.items).toHaveLength(4);
    });
    expect(warm).toBe(0);
  });

  it("shows a player's changed display name in the other instance's pages and rankings at once", async () => {
    await page(b);
    await ranking(b, players[0]);
    const res = await a.http().post('/v1/user/profile').set('Authorization', players[3].auth).send({ displayName: 'Renamed Champion' });
    expect(res.status).toBeLessThan(300);
    const top = await until(
      () => page(b),
      (p) => p.items[0].displayName === 'Renamed Champion',
    );
    expect(top.items[0].userId).toBe(players[3].userId);
    const r = await ranking(b, players[0]);
    expect(r.above.find((u) => u.userId === players[3].userId)?.displayName).toBe('Renamed Champion');
  });

  it("shows a player's spent balance and new grants in the other instance's ranking at once", async () => {
    const before = await ranking(b, players[1]);
    expect(before).toMatchObject({ rank: 3, amount: 20, balance: 20 });
    // A deduction that leaves earned (and so the rank) alone: only the balance moves.
    await adminApi(a, tenant)
      .post('/v1/admin/resources/deductions', {
        userId: players[1].userId,
        resourceTypeId: xp.id,
        amount: 5,
        reason: 'spent',
        idempotencyKey: `spend-${players[1].userId}`,
      })
      .expect(201);
    await until(
      () => ranking(b, players[1]),
      (r) => r.balance === 15,
    );
    // A grant moves the amount and the rank (Redis, after a's flush) and the balance.
    await grant(a, tenant, players[1].userId, xp.id, 100).expect(201);
    const after = await until(
      () => ranking(b, players[1]),
      (r) => r.rank === 1,
    );
    expect(after).toMatchObject({ rank: 1, amount: 120, balance: 115 });
  });

  it("shows a purchase's charge (the one-statement purchase, written around the ledger's code) in the other instance's ranking at once", async () => {
    const p = players[2];
    const before = await ranking(b, p);
    const item = await givenItem(a, tenant, c.id);
    const listing = await givenListing(a, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      quantity: 1,
      price: [{ resourceTypeId: xp.id, amount: 7 }],
    });
    await purchase(a, p, listing.id).expect(201);
    const after = await until(
      () => ranking(b, p),
      (r) => r.balance === before.balance - 7,
    );
    // Spending leaves the earned amount and the rank alone.
    expect(after).toMatchObject({ rank: before.rank, amount: before.amount });
  });
});
