import { Redis } from 'ioredis';
import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster } from '../helpers/processes.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { asUser, expectOk, givenCommunity, givenResourceType, grant, pool, register, report, scale, type User } from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Truth {
  /** user id -> [rank, earned] (rank null when unranked). */
  ranks: Map<string, [number | null, number]>;
  order: string[];
  total: number;
}

/**
 * Ranks in Redis shared by two instances (REDIS_URL): grants go through instance A, rankings and
 * leaderboard pages are read on instance B. Redis is a `redis-server` of this file's own, killed
 * in the middle of the load and started again (empty): every read keeps answering and, once the
 * load settles, equals what PostgreSQL says; after the restart the board is rebuilt in Redis.
 */
describe('ranks in Redis across two instances, Redis killed mid-load', () => {
  let server: RedisServer;
  let redis: Redis;
  let c: Cluster;
  let a: AppInstance;
  let b: AppInstance;
  let community: { id: string; slug: string };
  let xp: { id: string; slug: string };
  const users: User[] = [];
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    // READ_CACHE_MS=0: nothing is served from a process's memory, every read is the store's.
    c = await startCluster(createTestDatabase, 2, { REDIS_URL: server.url, READ_CACHE_MS: '0' });
    [a, b] = c.apps;
    community = await givenCommunity(a, c.tenant);
    xp = await givenResourceType(a, c.tenant, community.id);
    for (let i = 0; i < 24; i++) users.push(await register(a, c.tenant));
  }, 180_000);
  afterAll(async () => {
    report('ranks in Redis, two instances, Redis killed mid-load', figures);
    redis?.disconnect();
    await c?.close();
    await server?.close();
  });

  /** What PostgreSQL says, in one snapshot: the leaderboard order and every user's rank. */
  const truth = async (): Promise<Truth> => {
    const rows: { user_id: string; earned: string }[] = (
      await c.sql.query(
        `SELECT b.user_id, b.earned::text AS earned FROM resource_balances b WHERE b.resource_type_id = $1 AND b.earned > 0
         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC`,
        [xp.id],
      )
    ).rows;
    const ranks = new Map<string, [number | null, number]>();
    for (const u of users) ranks.set(u.userId, [null, 0]);
    for (const r of rows) ranks.set(r.user_id, [1 + rows.filter((o) => Number(o.earned) > Number(r.earned)).length, Number(r.earned)]);
    return { ranks, order: rows.map((r) => r.user_id), total: rows.length };
  };
  const rankingOn = async (app: AppInstance, u: User) =>
    expectOk(await app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}?neighbours=2`, { headers: asUser(u) }), 200, 'ranking')
      .body as { rank: number | null; amount: number; totalRanked: number; above: { rank: number }[]; below: { rank: number }[] };
  const pageOn = async (app: AppInstance) =>
    expectOk(
      await app.call('GET', `/v1/community/${community.id}/leaderboard/${xp.slug}?limit=100`, { headers: { 'X-Tenant-Id': c.tenant.id } }),
      200,
      'leaderboard',
    ).body as { items: { userId: string; rank: number; amount: number }[]; total: number };
  /** Where B's answers differ from PostgreSQL's now (every user's rank and amount, the whole page); null when nowhere. */
  const bDisagrees = async (): Promise<string | null> => {
    const t = await truth();
    const page = await pageOn(b);
    if (page.total !== t.total) return `total ${page.total}, PostgreSQL ${t.total}`;
    if (page.items.map((i) => i.userId).join() !== t.order.join())
      return `order ${JSON.stringify(page.items)}, PostgreSQL ${t.order.join()}`;
    for (const u of users) {
      const r = await rankingOn(b, u);
      const [rank, amount] = t.ranks.get(u.userId)!;
      if (r.rank !== rank || r.amount !== amount || r.totalRanked !== t.total)
        return `${u.userId}: ${JSON.stringify(r)}, PostgreSQL rank ${rank} amount ${amount} of ${t.total}`;
    }
    return null;
  };
  /** How long until B agrees (the writes are done); throws after `ms`. */
  const untilBAgrees = async (ms: number): Promise<number> => {
    const start = Date.now();
    for (let d = await bDisagrees(); d !== null; d = await bDisagrees()) {
      if (Date.now() - start > ms) throw new Error(`instance B did not agree with PostgreSQL within ${ms} ms: ${d}`);
      await sleep(50);
    }
    return Date.now() - start;
  };
  /** The user ids of the Redis board, in its order (a member ends with the user id's 32 hex digits). */
  const redisOrder = async () =>
    (await redis.zrange(`cgs:rank:{${xp.id}}:z`, 0, -1)).map((m) =>
      m.slice(14).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    );
  const boardReady = async () => {
    await redis.connect().catch(() => undefined);
    return (await redis.hget(`cgs:rank:{${xp.id}}:meta`, 'state').catch(() => null)) === 'ready';
  };

  /**
   * `count` grants on A (8 in flight) while B reads rankings; `during(i)` runs before grant i.
   * Every call must succeed, and every ranking B gives must be coherent (its rank within its total,
   * neighbours ranked around it, no amount above what the user ends with).
   */
  const load = async (count: number, during: (i: number) => Promise<void> = async () => undefined) => {
    let reads = 0;
    let writing = true;
    const seen: { userId: string; amount: number }[] = [];
    const reader = (async () => {
      for (let i = 0; writing; i++) {
        const u = users[i % users.length];
        const r = await rankingOn(b, u);
        reads++;
        seen.push({ userId: u.userId, amount: r.amount });
        if (r.rank !== null) {
          expect(r.rank).toBeGreaterThanOrEqual(1);
          expect(r.rank).toBeLessThanOrEqual(r.totalRanked);
          for (const n of r.above) expect(n.rank).toBeLessThanOrEqual(r.rank);
          for (const n of r.below) expect(n.rank).toBeGreaterThanOrEqual(r.rank);
        } else expect(r.amount).toBe(0);
      }
    })();
    try {
      await pool(8, count, async (i) => {
        await during(i);
        const u = users[Math.floor(Math.random() * users.length)];
        // Amounts 1..3: many ties.
        expectOk(await grant(a, c.tenant, u.userId, xp.id, 1 + Math.floor(Math.random() * 3)), 201, 'grant');
      });
    } finally {
      writing = false;
      await reader;
    }
    const t = await truth();
    for (const s of seen) expect(s.amount).toBeLessThanOrEqual(t.ranks.get(s.userId)![1]);
    return reads;
  };

  it('serves B from the Redis board A keeps up to date', async () => {
    await pageOn(b); // the first read builds the (empty) board
    for (let i = 0; i < 100 && !(await boardReady()); i++) await sleep(50);
    expect(await boardReady()).toBe(true);
    figures.readsWithRedisUp = await load(scale(300, 3000));
    figures.msUntilBAgreesAfterLoad_oneCheckIs25Reads = await untilBAgrees(5_000);
    expect(await boardReady()).toBe(true);
    expect(await redisOrder()).toEqual((await truth()).order);
  });

  it('keeps every answer correct when Redis is killed mid-load (PostgreSQL answers), then rebuilds the board when Redis is back', async () => {
    const count = scale(400, 4000);
    figures.readsWhileRedisIsKilled = await load(count, async (i) => {
      if (i === Math.floor(count / 3)) await server.kill();
    });
    // Redis is still down: once the writes are done, B's answers are exact at once (PostgreSQL).
    const downSince = Date.now();
    expect(await bDisagrees()).toBeNull();
    figures.msToCheckEveryRankWhileDown = Date.now() - downSince;
    // Started again (empty, as after a crash without persistence) while grants go on.
    figures.readsWhileRedisRestarts = await load(scale(300, 3000), async (i) => {
      if (i === 0) await server.start();
    });
    figures.msUntilBAgreesAfterRestart_oneCheckIs25Reads = await untilBAgrees(10_000);
    // The board was rebuilt from PostgreSQL: Redis holds every ranked user, in the leaderboard order.
    const deadline = Date.now() + 15_000;
    while (!(await boardReady()) && Date.now() < deadline) {
      await pageOn(b);
      await sleep(100);
    }
    expect(await boardReady()).toBe(true);
    await untilBAgrees(5_000);
    expect(await redisOrder()).toEqual((await truth()).order);
  });

  it('stays exact when both instances write the same users at once (their flushes race; the later commit wins in Redis)', async () => {
    // Few users, many concurrent grants through A and B: flushes of both processes overlap on the same users.
    const hot = users.slice(0, 4);
    const count = scale(400, 4000);
    await pool(16, count, async (i) => {
      const u = hot[i % hot.length];
      expectOk(await grant(i % 2 ? a : b, c.tenant, u.userId, xp.id, 1 + (i % 3)), 201, 'grant');
    });
    figures.racingGrants = count;
    figures.msUntilBAgreesAfterRacingWrites = await untilBAgrees(5_000);
    expect(await boardReady()).toBe(true);
    expect(await redisOrder()).toEqual((await truth()).order);
  });
});
