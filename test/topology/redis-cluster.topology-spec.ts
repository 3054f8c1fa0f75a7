import { Cluster } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { defaultTenantFromOutput, sqlPool, startApp, type AppInstance, type HttpResult } from '../helpers/processes.js';
import {
  asUser,
  countBy,
  expectOk,
  givenCommunity,
  givenResourceType,
  grant,
  register,
  report,
  type User,
} from '../reliability/support.js';
import { createTestDatabase, type TestDatabase } from '../setup/test-database.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

interface ClusterNode {
  id: string;
  port: number;
  role: 'master' | 'replica' | 'unknown';
  master: string | null;
  flags: string[];
  linkState: string;
  slots: string[];
}

/** scripts/redis-cluster.mjs */
interface RedisClusterScript {
  freeBasePort(): Promise<number>;
  up(dir: string, basePort: number): Promise<{ dir: string; ports: number[]; nodes: string }>;
  down(dir: string, o?: { clean?: boolean }): Promise<void>;
  killNode(port: number, dir?: string): void;
  restartNode(port: number, dir?: string): Promise<void>;
  clusterNodes(dir?: string): Promise<ClusterNode[]>;
  nodeInfo(port: number, section: string): Record<string, string>;
}

/** Load before the kill, and after the promotion. */
const SETTLE_MS = 1_500;
const LOOPS = 16;
const USERS = 16;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Sample = { at: number; path: string; status: number; ms: number; error?: string };

const p50 = (samples: Sample[]) =>
  samples.length ? Math.round(samples.map((s) => s.ms).sort((a, b) => a - b)[samples.length >> 1]) : null;

/** Whether `slot` is in one of a master's `CLUSTER NODES` ranges (`0-5460`, `42`; importing slots are `[...]`). */
const holds = (node: ClusterNode, slot: number) =>
  node.slots.some((r) => {
    if (r.startsWith('[')) return false;
    const [from, to = from] = r.split('-').map(Number);
    return slot >= from && slot <= to;
  });

/**
 * The loss of a Redis Cluster master (`npm run test:topology`): six redis-server processes on
 * loopback (scripts/redis-cluster.mjs: 3 masters, 3 replicas), two instances of the service given
 * REDIS_CLUSTER_NODES, on a PostgreSQL database of their own. Under grants, logins (rate limits in
 * Redis), rankings and leaderboard pages, the master holding the board's slot is killed with
 * SIGKILL; its replica is promoted. Every request is answered as with Redis up (ranks by
 * PostgreSQL meanwhile, rate limits in memory), and once the load stops the ranks of both
 * instances are PostgreSQL's and the board is served from Redis again. Then the old master comes
 * back as a replica.
 */
describe('Redis Cluster: the master of the rank board killed under load, its replica promoted', () => {
  let script: RedisClusterScript;
  let dir: string;
  let nodes: string;
  let db: TestDatabase;
  let sql: pg.Pool;
  let redis: Cluster;
  let apps: AppInstance[] = [];
  let teardown: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    script = (await import(pathToFileURL(resolve('scripts/redis-cluster.mjs')).href)) as RedisClusterScript;
    // The database server of the other tiers: DATABASE_URL's, or an embedded PostgreSQL, with the run's migrated template.
    const setup = (await import(pathToFileURL(resolve('test/setup/global-setup.mjs')).href)) as { default: () => Promise<void> };
    teardown = ((await import(pathToFileURL(resolve('test/setup/global-teardown.mjs')).href)) as { default: () => Promise<void> }).default;
    await setup.default();
    db = await createTestDatabase();
    sql = sqlPool(db.url);
    dir = mkdtempSync(join(tmpdir(), 'cgs-redis-cluster-'));
    ({ nodes } = await script.up(dir, await script.freeBasePort()));
    redis = new Cluster(
      nodes.split(',').map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })),
      { scaleReads: 'master', redisOptions: { commandTimeout: 2_000 } },
    );
    redis.on('error', () => undefined); // the kill: its commands fail and are retried
    // REDIS_URL emptied: a run's own Redis (startApp passes it on) must not be used, nor refused with the cluster.
    const env = { REDIS_URL: '', REDIS_CLUSTER_NODES: nodes, READ_CACHE_MS: '0', LOG_LEVEL: 'warn' };
    apps = [await startApp({ databaseUrl: db.url, name: 'app1', env })];
    apps.push(await startApp({ databaseUrl: db.url, name: 'app2', env }));
  }, 180_000);
  afterAll(async () => {
    for (const a of apps)
      // eslint-disable-next-line no-console -- a dead instance's last output is what explains the failure
      if (a.exitCode() !== null || !a.pid()) console.log(`${a.name} exited (${a.exitCode()}):\n${a.output().slice(-3000)}`);
    await Promise.all(apps.map((a) => a.kill()));
    redis?.disconnect();
    if (dir) await script.down(dir, { clean: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
    await sql?.end();
    await db?.drop();
    await teardown?.();
  }, 60_000);

  it('answers every request (ranks from PostgreSQL meanwhile), agrees with PostgreSQL after the promotion, and the old master rejoins as a replica', async () => {
    const tenant: TenantCredentials = defaultTenantFromOutput(apps[0].output());
    const community = await givenCommunity(apps[0], tenant);
    const xp = await givenResourceType(apps[0], tenant, community.id);
    const users: User[] = [];
    for (let i = 0; i < USERS; i++) users.push(await register(apps[i % 2], tenant));
    for (const [i, u] of users.entries()) expectOk(await grant(apps[i % 2], tenant, u.userId, xp.id, 1 + (i % 5)), 201, 'grant');

    const ranking = (app: AppInstance, u: User) =>
      app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}?neighbours=2`, { headers: asUser(u), timeoutMs: 10_000 });
    const page = (app: AppInstance) =>
      app.call('GET', `/v1/community/${community.id}/leaderboard/${xp.slug}?limit=100`, {
        headers: { 'X-Tenant-Id': tenant.id },
        timeoutMs: 10_000,
      });
    const meta = `cgs:rank:{${xp.id}}:meta`;
    const boardReady = async () => (await redis.hget(meta, 'state').catch(() => null)) === 'ready';
    /** The user ids of the Redis board, in its order (a member ends with the user id's 32 hex digits). */
    const redisOrder = async () =>
      (await redis.zrange(`cgs:rank:{${xp.id}}:z`, 0, -1)).map((m) =>
        m.slice(14).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
      );

    /** What PostgreSQL says, in one statement: the leaderboard order and every user's rank and amount. */
    const truth = async () => {
      // b.earned, the number: a bare `earned` would order by the text column of the same name.
      const { rows } = await sql.query<{ user_id: string; earned: string }>(
        `SELECT b.user_id, b.earned::text AS earned FROM resource_balances b WHERE b.resource_type_id = $1 AND b.earned > 0
         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC`,
        [xp.id],
      );
      const ranks = new Map<string, [number | null, number]>(users.map((u) => [u.userId, [null, 0]]));
      for (const r of rows) ranks.set(r.user_id, [1 + rows.filter((o) => Number(o.earned) > Number(r.earned)).length, Number(r.earned)]);
      return { ranks, order: rows.map((r) => r.user_id), total: rows.length };
    };
    /** Where an instance's answers differ from PostgreSQL's now (the whole page, every user's ranking); null when nowhere. */
    const disagrees = async (app: AppInstance): Promise<string | null> => {
      const t = await truth();
      const p = expectOk(await page(app), 200, 'leaderboard').body as {
        items: { userId: string; rank: number; amount: number }[];
        total: number;
      };
      if (p.total !== t.total) return `${app.name}: total ${p.total}, PostgreSQL ${t.total}`;
      if (p.items.map((i) => i.userId).join() !== t.order.join())
        return `${app.name}: order ${JSON.stringify(p.items)}, PostgreSQL ${t.order.join()}`;
      for (const i of p.items)
        if (i.rank !== t.ranks.get(i.userId)![0])
          return `${app.name}: page rank ${JSON.stringify(i)}, PostgreSQL ${t.ranks.get(i.userId)![0]}`;
      for (const u of users) {
        const r = expectOk(await ranking(app, u), 200, 'ranking').body as { rank: number | null; amount: number; totalRanked: number };
        const [rank, amount] = t.ranks.get(u.userId)!;
        if (r.rank !== rank || r.amount !== amount || r.totalRanked !== t.total)
          return `${app.name} ${u.userId}: ${JSON.stringify(r)}, PostgreSQL rank ${rank} amount ${amount} of ${t.total}`;
      }
      return null;
    };
    const untilAgree = async (ms: number): Promise<number> => {
      const start = performance.now();
      for (;;) {
        const d = (await disagrees(apps[0])) ?? (await disagrees(apps[1]));
        if (d === null) return performance.now() - start;
        if (performance.now() - start > ms)
          throw new Error(
            `the instances did not agree with PostgreSQL within ${ms} ms: ${d}\n${apps.map((a) => `${a.name}:\n${a.output().slice(-2000)}`).join('\n')}`,
          );
        await sleep(50);
      }
    };
    const untilBoardReady = async (ms: number) => {
      const start = performance.now();
      while (!(await boardReady())) {
        if (performance.now() - start > ms) throw new Error(`the Redis board was not ready within ${ms} ms`);
        await page(apps[(Math.random() * 2) | 0]); // a read of a missing board starts its rebuild
        await sleep(100);
      }
      return performance.now() - start;
    };

    // Redis serves the board before the kill.
    await untilBoardReady(15_000);
    await untilAgree(10_000);
    const slot = Number(await redis.cluster('KEYSLOT', meta));
    const before = await script.clusterNodes(dir);
    const victim = before.find((n) => n.role === 'master' && holds(n, slot))!;
    const replica = before.find((n) => n.role === 'replica' && n.master === victim.id)!;
    expect(victim).toBeDefined();
    expect(replica).toBeDefined();

    const samples: Sample[] = [];
    let stop = false;
    const t0 = performance.now();
    const requests: ((app: AppInstance, u: User) => readonly [string, Promise<HttpResult>])[] = [
      (app, u) => ['POST grant', grant(app, tenant, u.userId, xp.id, 1 + Math.floor(Math.random() * 3))],
      (app, u) => ['GET ranking', ranking(app, u)],
      (app) => ['GET leaderboard', page(app)],
      (app, u) => [
        'POST login',
        app.call('POST', '/v1/user/auth/password/login', {
          headers: { 'X-Tenant-Id': tenant.id },
          body: { username: u.username, password: u.password },
          timeoutMs: 10_000,
        }),
      ],
    ];
    const loop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        const [path, pending] = requests[(i + k) % requests.length](apps[(i + k) % 2], users[(i * 7 + k) % users.length]);
        const at = performance.now() - t0;
        try {
          const r = await pending;
          samples.push({ at, path, status: r.status, ms: r.ms });
        } catch (e) {
          samples.push({ at, path, status: 0, ms: performance.now() - t0 - at, error: (e as Error).message });
        }
      }
    };
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, k) => loop(k)));

    let killedAt = 0;
    let promotedAt = -1;
    try {
      await sleep(SETTLE_MS);
      killedAt = performance.now() - t0;
      script.killNode(victim.port, dir);
      const deadline = performance.now() + 30_000;
      while (promotedAt < 0 && performance.now() < deadline) {
        const now = await script.clusterNodes(dir).catch(() => []);
        const promoted = now.find((n) => n.id === replica.id);
        if (promoted?.role === 'master' && holds(promoted, slot)) promotedAt = performance.now() - t0;
        else await sleep(50);
      }
      await sleep(SETTLE_MS);
    } finally {
      stop = true;
      await loops;
    }
    expect(promotedAt).toBeGreaterThan(0);
    const after = await script.clusterNodes(dir);
    expect(after.find((n) => n.id === victim.id)?.flags).toContain('fail');
    expect(after.filter((n) => n.role === 'master' && n.slots.length > 0 && !n.flags.includes('fail')).length).toBe(3);

    // Every request answered as with Redis up: no 5xx (not even 503), no hang, no refused connection.
    const wrong = samples.filter((s) => s.status !== (s.path.startsWith('POST') ? (s.path === 'POST login' ? 200 : 201) : 200));
    expect(wrong.map((s) => `${s.path} ${s.status} ${s.error ?? ''}`)).toEqual([]);
    const around = samples.filter((s) => s.at >= killedAt && s.at <= promotedAt);
    expect(around.length).toBeGreaterThan(0);
    expect(apps.map((a) => a.exitCode())).toEqual([null, null]);

    // The writes done, both instances give PostgreSQL's ranks; the board is in Redis again, in PostgreSQL's order.
    const msUntilRanksAgree = await untilAgree(20_000);
    const msUntilBoardReady = await untilBoardReady(20_000);
    expect(await redisOrder()).toEqual((await truth()).order);
    await untilAgree(5_000);
    // The rate limits were counted in the cluster (hash-tagged counters, one slot each).
    const rateLimitKeys = (await Promise.all(redis.nodes('master').map((m) => m.keys('cgs:rl:{*}').catch(() => [])))).flat();
    expect(rateLimitKeys.length).toBeGreaterThan(0);

    // The old master's machine comes back, empty: it rejoins as the replica of the promoted node, in sync.
    const rejoinFrom = performance.now();
    await script.restartNode(victim.port, dir);
    let msToRejoin = -1;
    while (performance.now() - rejoinFrom < 30_000) {
      const back = (await script.clusterNodes(dir).catch(() => [])).find((n) => n.id === victim.id);
      const link = back?.role === 'replica' ? script.nodeInfo(victim.port, 'replication') : {};
      if (back?.master === replica.id && !back.flags.includes('fail') && link.master_link_status === 'up') {
        msToRejoin = performance.now() - rejoinFrom;
        break;
      }
      await sleep(100);
    }
    expect(msToRejoin).toBeGreaterThan(0);
    // Still served and exact with the whole cluster back.
    for (const [i, u] of users.slice(0, 4).entries()) expectOk(await grant(apps[i % 2], tenant, u.userId, xp.id, 2), 201, 'grant');
    await untilAgree(10_000);

    report('12. Redis Cluster master lost (ioredis Cluster)', {
      requestLoops: LOOPS,
      requests: samples.length,
      statuses: countBy(samples, (s) => `${s.path} ${s.status}`),
      requestsBetweenKillAndPromotion: around.length,
      msP50BeforeKill: p50(samples.filter((s) => s.at + s.ms < killedAt)),
      msP50BetweenKillAndPromotion: p50(around),
      slowestBetweenKillAndPromotion: (({ path, ms }) => `${path} ${Math.round(ms)} ms`)(around.reduce((a, b) => (b.ms > a.ms ? b : a))),
      msP50AfterPromotion: p50(samples.filter((s) => s.at > promotedAt)),
      msFromKillToPromotion: Math.round(promotedAt - killedAt),
      msUntilRanksAgreeAfterLoad: Math.round(msUntilRanksAgree),
      msUntilBoardReadyInRedis: Math.round(msUntilBoardReady),
      msToRejoinAsReplica: Math.round(msToRejoin),
    });
  }, 240_000);
});
