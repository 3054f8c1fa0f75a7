import fc from 'fast-check';
import { Redis } from 'ioredis';
import { DomainEvents } from '../../src/common/events/domain-events.js';
import { LeaderboardReadModel } from '../../src/resources/leaderboard.read-model.js';
import { RankPeople } from '../../src/resources/rank-people.js';
import { PostgresRankStore } from '../../src/resources/pg-rank-store.js';
import { RankStore } from '../../src/resources/rank-store.js';
import { BEHIND_GRACE_MS, RANK_FORMAT, RedisRankStore } from '../../src/resources/redis-rank-store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { startRedisServer, startTcpProxy, type RedisServer, type TcpProxy } from '../helpers/redis-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { uniqueName } from '../factories/unique-name.js';

/**
 * The Redis rank store (REDIS_URL) against the PostgreSQL one on the same data: random grants and
 * revokes, ties, rebuilds, Redis going away and coming back. Redis is a `redis-server` of this
 * file's own (killed and restarted by the outage test); keys are per resource type (uuids), so
 * nothing collides with other files even on a shared Redis. The app reaches it through a TCP proxy,
 * so one test can cut the app off while Redis keeps its data.
 */
describe('the Redis rank store', () => {
  let server: RedisServer;
  let proxy: TcpProxy;
  let t: TestApp;
  let tenant: TenantCredentials;
  let store: RedisRankStore;
  let pg: PostgresRankStore;
  let redis: Redis;
  let c: TestCommunity;
  let users: TestUser[];

  beforeAll(async () => {
    server = await startRedisServer();
    // The app reaches Redis through a proxy the test can cut; the test itself talks to Redis directly.
    proxy = await startTcpProxy(server.port);
    // READ_CACHE_MS=0: no page kept in the process, every route reads the store.
    t = await createTestApp({ REDIS_URL: proxy.url, READ_CACHE_MS: '0' });
    tenant = await t.givenTenant();
    const s = t.app.get(RankStore);
    if (!(s instanceof RedisRankStore)) throw new Error('REDIS_URL is set: the rank store must be the Redis one');
    store = s;
    pg = t.app.get(PostgresRankStore);
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    c = await givenCommunity(t, tenant);
    users = [];
    for (let i = 0; i < 6; i++) users.push(await givenUser(t, tenant));
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
    await proxy?.close();
    await server?.close();
  });

  const keys = (typeId: string) => {
    const p = `cgs:rank:{${typeId}}`;
    return { meta: `${p}:meta`, z: `${p}:z`, h: `${p}:h` };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Reads until Redis answers on its own (the first read of a missing board starts its rebuild). */
  const redisAnswers = async (typeId: string) => {
    for (let i = 0; i < 400; i++) {
      await store.drain();
      if (await store.redisLeaderboard(typeId, { page: 1, offset: 0, limit: 1 })) return;
      await sleep(25);
    }
    throw new Error(`the board of ${typeId} was not rebuilt in Redis`);
  };
  const pages = [
    { page: 1, offset: 0, limit: 3 },
    { page: 1, offset: 2, limit: 3 },
    { page: 1, offset: 0, limit: 100 },
  ];
  /** Every user's ranking (0 and 2 neighbours) and a few pages, from Redis alone, equal PostgreSQL's. */
  const expectSameAsPostgres = async (typeId: string) => {
    await store.drain();
    for (const u of users) {
      for (const around of [0, 2]) {
        const fromRedis = await store.redisUserRanking(typeId, u.userId, around);
        expect(fromRedis).not.toBeNull();
        expect(fromRedis).toEqual(await pg.userRanking(typeId, u.userId, around));
      }
    }
    for (const page of pages) {
      const fromRedis = await store.redisLeaderboard(typeId, page);
      expect(fromRedis).not.toBeNull();
      expect(fromRedis).toEqual(await pg.leaderboard(typeId, page));
    }
  };
  const leaderboard = async (slug: string) => {
    const res = await t.http().get(`/v1/community/${c.id}/leaderboard/${slug}?limit=100`).set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(200);
    return res.body as { items: { rank: number; userId: string; amount: number }[]; total: number };
  };
  const ranking = async (slug: string, u: TestUser) => {
    const res = await t.http().get(`/v1/community/${c.id}/ranking/${slug}?neighbours=2`).set('Authorization', u.auth);
    expect(res.status).toBe(200);
    return res.body as { rank: number | null; amount: number; totalRanked: number };
  };
  const revoke = (u: TestUser, typeId: string, amount: number) =>
    adminApi(t, tenant).post('/v1/admin/resources/deductions', {
      userId: u.userId,
      resourceTypeId: typeId,
      amount,
      reason: 'correction',
      lowerEarned: true,
      idempotencyKey: uniqueName('rv'),
    });

  it('is the store when REDIS_URL is set, and serves the HTTP routes from Redis once the board is built', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    await redisAnswers(xp.id);
    await grant(t, tenant, users[0].userId, xp.id, 10).expect(201);
    await grant(t, tenant, users[1].userId, xp.id, 20).expect(201);
    // A player's own grant shows at once in their ranking on the process that made it: the read
    // waits for that player's flush (and so for the flushes queued before it, users[0]'s).
    expect(await ranking(xp.slug, users[1])).toMatchObject({ rank: 1, amount: 20, totalRanked: 2 });
    expect(await ranking(xp.slug, users[0])).toMatchObject({ rank: 2, amount: 10, totalRanked: 2 });
    // Prove the route reads Redis: a score changed behind the store's back shows (nobody else writes Redis).
    const k = keys(xp.id);
    const [member] = await redis.zrange(k.z, 0, 0); // users[1], first
    await redis.zadd(k.z, '-5', member);
    expect((await leaderboard(xp.slug)).items.map((i) => [i.userId, i.amount])).toEqual([
      [users[0].userId, 10],
      [users[1].userId, 5],
    ]);
    // A board of another format is not read (PostgreSQL answers: the truth), then rebuilt from PostgreSQL.
    await redis.hset(k.meta, 'fmt', `${RANK_FORMAT}-old`);
    expect(await store.redisLeaderboard(xp.id, { page: 1, offset: 0, limit: 10 })).toBeNull();
    expect((await leaderboard(xp.slug)).items.map((i) => [i.userId, i.amount])).toEqual([
      [users[1].userId, 20],
      [users[0].userId, 10],
    ]);
    await redisAnswers(xp.id);
    expect(await redis.hget(k.meta, 'fmt')).toBe(RANK_FORMAT);
    expect(await redis.zscore(k.z, member)).toBe('-20');
    await expectSameAsPostgres(xp.id);
  });

  it('agrees with PostgreSQL on every rank, neighbour and page after random grants and revokes (fast-check)', async () => {
    const op = fc.record({
      user: fc.integer({ min: 0, max: 5 }),
      // Small amounts: many equal scores, so ties are the common case.
      amount: fc.integer({ min: 1, max: 4 }),
      kind: fc.constantFrom('grant', 'grant', 'grant', 'revoke'),
      // Whether the (frozen) clock moves first: same-time ties fall back to the user id.
      tick: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        const xp = await givenResourceType(t, tenant, c.id);
        await redisAnswers(xp.id); // built (empty) first: what follows goes through the after-commit writes
        t.clock.freeze();
        for (const o of ops) {
          if (o.tick) t.clock.advance(1);
          if (o.kind === 'grant') await grant(t, tenant, users[o.user].userId, xp.id, o.amount).expect(201);
          else expect([201, 409]).toContain((await revoke(users[o.user], xp.id, o.amount)).status);
        }
        t.clock.unfreeze();
        await expectSameAsPostgres(xp.id);
      }),
      { numRuns: 15 },
    );
  });

  it('orders ties exactly as PostgreSQL: equal amounts share a rank, first to reach the amount first, then user id', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    await redisAnswers(xp.id);
    const byId = [...users].sort((a, b) => (a.userId < b.userId ? -1 : 1));
    t.clock.freeze();
    // Same instant: order by user id (reversed grant order, so arrival order cannot explain it).
    for (const u of [...byId.slice(0, 3)].reverse()) await grant(t, tenant, u.userId, xp.id, 50).expect(201);
    t.clock.advance(5);
    await grant(t, tenant, byId[5].userId, xp.id, 50).expect(201); // later: after the three
    t.clock.advance(5);
    await grant(t, tenant, byId[4].userId, xp.id, 30).expect(201);
    await grant(t, tenant, byId[3].userId, xp.id, 80).expect(201);
    t.clock.advance(5);
    // byId[4] reaches 50 last, and byId[0] leaves 50 (a revoke moves it down, reached now).
    await grant(t, tenant, byId[4].userId, xp.id, 20).expect(201);
    expect((await revoke(byId[0], xp.id, 10)).status).toBe(201);
    t.clock.unfreeze();
    // A page waits for no other player's flush (they show a flush later): ties are the point here.
    await store.drain();
    const lb = await leaderboard(xp.slug);
    expect(lb.items.map((i) => [i.userId, i.rank, i.amount])).toEqual([
      [byId[3].userId, 1, 80],
      [byId[1].userId, 2, 50],
      [byId[2].userId, 2, 50],
      [byId[5].userId, 2, 50],
      [byId[4].userId, 2, 50],
      [byId[0].userId, 6, 40],
    ]);
    expect(await store.redisLeaderboard(xp.id, { page: 1, offset: 0, limit: 100 })).toEqual(
      await pg.leaderboard(xp.id, { page: 1, offset: 0, limit: 100 }),
    );
    // A page that starts inside the tie still numbers it from the counts, not the page.
    expect((await store.redisLeaderboard(xp.id, { page: 2, offset: 2, limit: 2 }))!.items.map((i) => i.rank)).toEqual([2, 2]);
    await expectSameAsPostgres(xp.id);
  });

  it('rebuilds a board whose keys are gone: the next read is PostgreSQL, then Redis again', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    for (const [i, u] of users.entries()) await grant(t, tenant, u.userId, xp.id, 10 * (i + 1)).expect(201);
    await redisAnswers(xp.id);
    await expectSameAsPostgres(xp.id);
    const k = keys(xp.id);
    await redis.del(k.z, k.h, k.meta);
    expect(await store.redisLeaderboard(xp.id, { page: 1, offset: 0, limit: 10 })).toBeNull();
    const lb = await leaderboard(xp.slug);
    expect(lb.total).toBe(users.length);
    expect(lb.items.map((i) => i.userId)).toEqual([...users].reverse().map((u) => u.userId));
    await redisAnswers(xp.id);
    expect(await redis.zcard(k.z)).toBe(users.length);
    await expectSameAsPostgres(xp.id);
    // Writes during a rebuild reach the rebuilt board: drop it again and grant while it is rebuilt.
    await redis.del(k.z, k.h, k.meta);
    await Promise.all([leaderboard(xp.slug), grant(t, tenant, users[0].userId, xp.id, 1000).expect(201)]);
    await redisAnswers(xp.id);
    expect((await store.redisUserRanking(xp.id, users[0].userId, 0))!.rank).toBe(1);
    await expectSameAsPostgres(xp.id);
  });

  it('keeps ranks correct while Redis is down (PostgreSQL answers), and rebuilds when it is back', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    for (const [i, u] of users.entries()) await grant(t, tenant, u.userId, xp.id, i + 1).expect(201);
    await redisAnswers(xp.id);
    await server.kill();
    // Writes do not need Redis; reads come from PostgreSQL, exact.
    await grant(t, tenant, users[0].userId, xp.id, 100).expect(201);
    expect(await ranking(xp.slug, users[0])).toMatchObject({ rank: 1, amount: 101, totalRanked: users.length });
    expect((await leaderboard(xp.slug)).items[0]).toMatchObject({ userId: users[0].userId, rank: 1, amount: 101 });
    for (const u of users) expect(await store.userRanking(xp.id, u.userId, 2)).toEqual(await pg.userRanking(xp.id, u.userId, 2));
    await server.start(); // empty: everything is rebuilt from PostgreSQL
    for (let i = 0; i < 200 && store.redis.status !== 'ready'; i++) await sleep(50);
    await redisAnswers(xp.id);
    expect(await store.redisUserRanking(xp.id, users[0].userId, 0)).toMatchObject({ rank: 1, amount: 101 });
    await expectSameAsPostgres(xp.id);
  });

  it('rebuilds a board that missed a write while Redis kept its data (this instance was cut off), instead of serving it stale', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    for (const [i, u] of users.entries()) await grant(t, tenant, u.userId, xp.id, i + 1).expect(201);
    await redisAnswers(xp.id);
    proxy.cut(); // Redis runs on with the board; only this instance cannot reach it
    await grant(t, tenant, users[0].userId, xp.id, 100).expect(201);
    expect(await ranking(xp.slug, users[0])).toMatchObject({ rank: 1, amount: 101 });
    // The write never reached Redis: its board still says 1 for users[0].
    const k = keys(xp.id);
    const [, member] = (await redis.hget(k.h, users[0].userId))!.split('|');
    expect(await redis.zscore(k.z, member)).toBe('-1');
    expect(await redis.hget(k.meta, 'state')).toBe('ready');
    proxy.heal();
    // Back in touch: the board this instance failed to write is invalidated, then rebuilt with the write.
    for (let i = 0; i < 200 && store.redis.status !== 'ready'; i++) await sleep(25);
    await redisAnswers(xp.id);
    expect(await store.redisUserRanking(xp.id, users[0].userId, 0)).toMatchObject({ rank: 1, amount: 101 });
    await expectSameAsPostgres(xp.id);
  });

  it('refuses a flush that read its rows before another flush wrote the user (compare-and-set) and hands the user back for another flush', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    await grant(t, tenant, users[0].userId, xp.id, 5).expect(201);
    await redisAnswers(xp.id);
    const k = keys(xp.id);
    const all = [k.meta, k.z, k.h, `cgs:rank:{${xp.id}}:zb`, `cgs:rank:{${xp.id}}:hb`, `cgs:rank:{${xp.id}}:seq`];
    const seenBefore = (await redis.hget(k.h, users[0].userId))!;
    const staleMember = seenBefore.split('|')[1];
    await grant(t, tenant, users[0].userId, xp.id, 1).expect(201); // flushed: the user is at 6 now
    await store.drain();
    const flush = (expected: string, member: string, score: string) =>
      (store.redis as unknown as { rankFlush: (...a: string[]) => Promise<string[]> }).rankFlush(
        ...all,
        users[0].userId,
        expected,
        '',
        member,
        score,
      );
    // A slower flusher that read the hash before that write and PostgreSQL before that commit (5):
    expect(await flush(seenBefore, staleMember, '-5')).toEqual([users[0].userId]);
    const current = (await redis.hget(k.h, users[0].userId))!;
    expect(await redis.zscore(k.z, current.split('|')[1])).toBe('-6');
    expect(await redis.zcard(k.z)).toBe(1);
    // One that read the current value applies (and gets a new write id).
    expect(await flush(current, current.split('|')[1], '-6')).toEqual([]);
    expect(await redis.hget(k.h, users[0].userId)).not.toBe(current);
    await expectSameAsPostgres(xp.id);
  });

  it('rebuilds a board that lost a write (a process died between its commit and its flush) once a player sees it for BEHIND_GRACE_MS', async () => {
    const xp = await givenResourceType(t, tenant, c.id);
    for (const [i, u] of users.entries()) await grant(t, tenant, u.userId, xp.id, i + 1).expect(201);
    await grant(t, tenant, users[0].userId, xp.id, 100).expect(201);
    await redisAnswers(xp.id);
    // The flush of that grant never happened: Redis still has users[0] at 1.
    const k = keys(xp.id);
    const [, member] = (await redis.hget(k.h, users[0].userId))!.split('|');
    await redis.zadd(k.z, '-1', member);
    // The player's own ranking disagrees with PostgreSQL: PostgreSQL answers (the truth).
    expect(await ranking(xp.slug, users[0])).toMatchObject({ rank: 1, amount: 101 });
    expect(await store.redisUserRanking(xp.id, users[0].userId, 2)).toBeNull();
    await sleep(BEHIND_GRACE_MS + 100);
    // Still so after the grace period: a lost write, the board is rebuilt.
    expect(await ranking(xp.slug, users[0])).toMatchObject({ rank: 1, amount: 101 });
    await redisAnswers(xp.id);
    expect(await redis.zscore(k.z, member)).toBe('-101');
    await expectSameAsPostgres(xp.id);
  }, 30_000);

  it('lets two instances start a rebuild of the same board at once (the lock lets one build): both then read the same, exact board', async () => {
    // A second instance's store in this process: same Redis, same database, its own queue and rebuilds.
    const other = new RedisRankStore(proxy.url, pg, t.app.get(LeaderboardReadModel), t.app.get(RankPeople), t.app.get(DomainEvents));
    try {
      for (let i = 0; i < 100 && other.redis.status !== 'ready'; i++) await sleep(20);
      const xp = await givenResourceType(t, tenant, c.id);
      for (const [i, u] of users.entries()) await grant(t, tenant, u.userId, xp.id, 3 * (i % 3) + 1).expect(201);
      const page = { page: 1, offset: 0, limit: 100 };
      // Both find the board missing at the same moment and both start a rebuild; grants go on meanwhile.
      const [a, b] = await Promise.all([store.redisLeaderboard(xp.id, page), other.redisLeaderboard(xp.id, page)]);
      expect([a, b]).toEqual([null, null]);
      await Promise.all([grant(t, tenant, users[1].userId, xp.id, 50).expect(201), store.drain(), other.drain()]);
      await redisAnswers(xp.id);
      await other.drain();
      expect(await other.redisLeaderboard(xp.id, page)).toEqual(await pg.leaderboard(xp.id, page));
      expect(await redis.zcard(keys(xp.id).z)).toBe(users.length);
      await expectSameAsPostgres(xp.id);
    } finally {
      await other.onModuleDestroy();
      await other.onApplicationShutdown();
    }
  });
});
