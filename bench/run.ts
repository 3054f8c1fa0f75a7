/**
 * `npm run bench [-- <scenario> ...]`: the performance suite (docs/performance.md).
 *
 * 1. A database server (DATABASE_URL's, or a throw-away embedded PostgreSQL) and a fresh database.
 * 2. The service as a child process (`node dist/src/main.js`: migrations run at start, the
 *    default tenant is created and its credentials read from its output), the bare NestJS app
 *    (bench/baseline-app.ts) as another child.
 * 3. Seeds what the chosen scenarios need with bulk SQL, then VACUUM ANALYZE.
 * 4. Each scenario: a warm-up, then autocannon at BENCH_CONNECTIONS (32) for BENCH_DURATION s.
 * 5. The bare route again at the end of a full run (`baseline-nest-end`): how far the machine's
 *    speed moved over the run, since every ratio is to the first measurement.
 * 6. One table (scenario, req/s, p50, p99, ratio to the bare route of the same run, goal, met),
 *    also written to bench/results/<time>.{json,md} and bench/results/latest.{json,md}.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS
 * (default 32), BENCH_LARGE (ranked users of the "1m" scenarios, default 1000000), BENCH_EVENTS
 * (default 10000), BENCH_QUESTS (default 100000), DATABASE_URL (else embedded PostgreSQL),
 * BENCH_SERVICE_ENV (extra env for the service, e.g. `DB_POOL_SIZE=20`), BENCH_SERVICE_FLAGS (Node or
 * V8 flags for the service, e.g. `--trace-opt --trace-deopt`, which NODE_OPTIONS refuses),
 * BENCH_SERVICE_LOG (a file that gets all the children's output, whole), BENCH_REUSE_DB (a database
 * name on DATABASE_URL's server that is kept after the run and reused, seeded, by the next run
 * with the same sizes: for profiling; the recorded figures come from fresh databases),
 * BENCH_PROFILE=1 (CPU profile of the service during each measured run, via
 * scripts/bench-cpu-prof.mjs, written to bench/results/<scenario>.cpuprofile; use it with
 * BENCH_WORKERS=1), BENCH_WORKERS (the service's WEB_CONCURRENCY: HTTP worker processes, default
 * one per core, as in production; the bare route runs with as many), BENCH_REDIS=1 (the rank
 * scenarios run a second time, side by side, against a second service on the same database with
 * REDIS_URL = BENCH_REDIS_URL or the local server), BENCH_DOCS=1 (the run's chart also goes to
 * docs/bench-latest.svg, which docs/performance.md shows). For experiments with the live-event mix:
 * BENCH_LIVE_WRITERS (its writer connections, default a fifth of BENCH_CONNECTIONS; 0: reads only),
 * BENCH_LIVE_WRITE_RATE (grants per second in all, paced; default: as fast as they answer) and
 * BENCH_LIVE_READERS (the players whose sessions read, default 200: each player's ranking is a
 * value every process keeps, and that every write's drops must look through).
 * Every measured run records the CPU time of the service's processes (and the database's) per
 * request. BENCH_PERF=1: it also counts the instructions the service's processes and
 * PostgreSQL's retire (perf stat), per request: what a change costs, steadier than req/s or CPU
 * time when the machine's speed moves between runs (where the machine exposes CPU counters).
 * `npm run bench` runs on Node 24, the active LTS, from scripts/node-toolchain.sh (BENCH_NODE=22 or
 * a version for another), whatever node is on PATH: the service, the bare route and the load
 * generator all run on the Node that runs this file.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactEncrypt, SignJWT } from 'jose';
import { Redis } from 'ioredis';
import pg from 'pg';
import { goalRatioOf, renderChart } from './lib/chart.js';
import { load, type LoadRequest, type Measured } from './lib/load.js';
import { LAYERS, type Layers } from './limit/program.js';
import {
  backendCpuMs,
  countInstructions,
  cpuMsOf,
  kernelSideOf,
  findDescendant,
  postgresCpuMs,
  processesNamed,
  processTree,
  rssMb,
  startChild,
  treeRssMb,
  waitFor200,
  waitForOutput,
  type Child,
} from './lib/processes.js';
import { resourceType, seedBalances, seedQuests, seedSeason, seedUsers, type Tenant } from './lib/seed.js';
import { freePort, log, percentile, since, sleep } from './lib/util.js';

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
const LARGE = Number(env.BENCH_LARGE ?? 1_000_000);
const SMALL = Math.min(10_000, LARGE);
const EVENTS = Number(env.BENCH_EVENTS ?? 10_000);
const QUESTS = Number(env.BENCH_QUESTS ?? 100_000);
const PROFILE = env.BENCH_PROFILE === '1';
/** BENCH_PERF=1: instructions per request of the service and of PostgreSQL (perf stat), to compare builds on a noisy machine. */
const PERF = env.BENCH_PERF === '1';
const WORKERS = Number(env.BENCH_WORKERS ?? availableParallelism());
/** The service's pool per worker (its DB_POOL_SIZE, default 10, or BENCH_SERVICE_ENV's). */
const POOL = Number(/(?:^|\s)DB_POOL_SIZE=(\d+)/.exec(env.BENCH_SERVICE_ENV ?? '')?.[1] ?? 10);
/** The raw-pg baseline gets the service's whole pool: every worker's connections. */
const PG_CLIENTS = WORKERS * POOL;
/** Node's flags of `npm start` (package.json), so that the service runs here as it runs there. */
const START_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

/** BENCH_REDIS=1: the rank scenarios also run against a second service with REDIS_URL (the local server unless BENCH_REDIS_URL says). */
const REDIS = env.BENCH_REDIS === '1';
const REDIS_URL = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BUYERS = 2_000;
const SAMPLE = 1_000;
/** The players reading in the live-event mix (each reads their own ranking, among the other reads). */
const LIVE_READERS = Number(env.BENCH_LIVE_READERS ?? 200);
const SESSION_SECRET = randomBytes(32).toString('hex');
// Fixed when a database is reused (secrets at rest must still decrypt); random otherwise.
const ENCRYPTION_KEY = env.BENCH_REUSE_DB
  ? 'be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c4be7c'
  : randomBytes(32).toString('hex');
const human = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}m` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);

// ---------------------------------------------------------------------------------------------

type Need = 'large' | 'small' | 'event' | 'quests' | 'store' | 'season' | 'play';

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  /** req/s divided by the bare NestJS route's req/s of the same run. */
  ratio: number | null;
  goal: string;
  met: boolean | null;
  note: string;
  /** CPU ms of the bench database's own backends per request (backendCpuMs): unlike dbMs, not raised by other clients of the server. */
  dbOwnMs?: number;
  /** CPU ms of the PostgreSQL server per request of the measured run (postgresCpuMs), when measured. */
  dbMs?: number;
  /** CPU ms of the service's processes (the bare route's, on its row) per request. */
  serviceMs?: number;
  /** The kernel's part of serviceMs (system time) and the service's minor page faults, per request. */
  serviceSysMs?: number;
  serviceFaults?: number;
  /** CPU ms of the load generator (the bench's own process, on the same cores) per request. */
  loadMs?: number;
  /** With BENCH_PERF: millions of instructions per request of the service's processes and of PostgreSQL's. */
  serviceMinstr?: number;
  dbMinstr?: number;
}

interface Ctx {
  base: string;
  db: pg.Client;
  dbUrl: string;
  tenant: Tenant;
  communityId: string;
  ids: Record<string, string>;
  rows: Map<string, Row>;
  bare: () => Row;
  token: (userId: string) => Promise<string>;
  service: Child;
  /** The command line that names the measured processes under `service` (its pid's tree). */
  processName?: string;
  /** '' for the default deployment; ' (redis)' for the service with REDIS_URL (BENCH_REDIS=1). */
  variant: string;
  /** The service's SESSION_SECRET and ENCRYPTION_KEY, which a limit program shares. */
  sessionSecret: string;
  encryptionKey: string;
}

interface Scenario {
  name: string;
  needs: Need[];
  /** Scenarios whose rows this one's goal refers to (run first when this one is chosen alone). */
  after?: string[];
  /** A rank scenario: with BENCH_REDIS=1 it runs again against the service with REDIS_URL. */
  ranks?: boolean;
  run: (c: Ctx) => Promise<Row>;
}

const row = (
  scenario: string,
  m: Pick<
    Measured,
    'rps' | 'p50' | 'p99' | 'dbMs' | 'dbOwnMs' | 'serviceMs' | 'serviceSysMs' | 'serviceFaults' | 'loadMs' | 'serviceMinstr' | 'dbMinstr'
  >,
  c: Ctx | null,
  goal: string,
  met: boolean | null,
  note = '',
): Row => ({
  scenario,
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  ratio: c ? m.rps / c.bare().rps : 1,
  dbMs: m.dbMs,
  dbOwnMs: m.dbOwnMs,
  serviceMs: m.serviceMs,
  serviceSysMs: m.serviceSysMs,
  serviceFaults: m.serviceFaults,
  loadMs: m.loadMs,
  serviceMinstr: m.serviceMinstr,
  dbMinstr: m.dbMinstr,
  goal,
  met,
  note,
});

/** With BENCH_PROFILE: the service writes its CPU profile since the last signal; keep it as `name`. */
async function profileMark(c: Ctx, name: string | null): Promise<void> {
  if (!PROFILE) return;
  const dir = 'bench/results/.prof';
  const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
  c.service.proc.kill('SIGURG');
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    const fresh = (existsSync(dir) ? readdirSync(dir) : []).filter((f) => !before.has(f));
    if (fresh.length) {
      await sleep(200);
      if (name) renameSync(join(dir, fresh[0]), `bench/results/${name}.cpuprofile`);
      else rmSync(join(dir, fresh[0]));
      if (name)
        log(
          `  cpu profile: bench/results/${name}.cpuprofile (node scripts/bench-cpu-prof.mjs <file> [requests] summarises it; requests: the 2xx count below)`,
        );
      return;
    }
  }
}

/** The service's processes: the cluster primary and its workers. */
const servicePids = (c: Ctx) => processTree(c.service.proc.pid!, c.processName ?? 'dist/src/main.js');

/**
 * Counts what these processes use until `stop(requests)`, per request: their CPU time, and with
 * BENCH_PERF the instructions they and PostgreSQL retire. CPU time moves with the machine's other
 * load; instructions do not, but need a CPU whose counters the machine exposes (not every VM does).
 */
function countPerRequest(pids: number[]): {
  stop: (
    requests: number,
  ) => Promise<Pick<Measured, 'serviceMs' | 'serviceSysMs' | 'serviceFaults' | 'loadMs' | 'serviceMinstr' | 'dbMinstr'>>;
} {
  const cpu0 = cpuMsOf(pids);
  const kernel0 = kernelSideOf(pids);
  const own0 = process.cpuUsage();
  const counters = PERF ? [countInstructions(pids), countInstructions(processesNamed('postgres'))] : [];
  return {
    stop: async (requests) => {
      const kernel = kernelSideOf(pids);
      const service = {
        serviceMs: (cpuMsOf(pids) - cpu0) / requests,
        serviceSysMs: (kernel.sysMs - kernel0.sysMs) / requests,
        serviceFaults: (kernel.minorFaults - kernel0.minorFaults) / requests,
      };
      const own = process.cpuUsage(own0);
      const loadMs = (own.user + own.system) / 1000 / requests;
      if (!PERF) return { ...service, loadMs };
      const [serviceInstr, dbInstr] = await Promise.all(counters.map((k) => k.stop()));
      if (!Number.isFinite(serviceInstr)) {
        if (!perfWarned) log('  BENCH_PERF: perf cannot count instructions on this machine (no hardware counters); CPU times only');
        perfWarned = true;
        return { ...service, loadMs };
      }
      return { ...service, loadMs, serviceMinstr: serviceInstr / 1e6 / requests, dbMinstr: dbInstr / 1e6 / requests };
    },
  };
}
let perfWarned = false;

/** The log's figures of what a request cost: the service's CPU time, with BENCH_PERF the instructions. */
const perRequestCosts = (m: Measured): string =>
  (m.serviceMs === undefined ? '' : `; service CPU ${m.serviceMs.toFixed(3)} ms/req`) +
  (m.serviceSysMs === undefined ? '' : ` (system ${m.serviceSysMs.toFixed(3)}, ${m.serviceFaults!.toFixed(2)} minor page faults/req)`) +
  (m.loadMs === undefined ? '' : `; load generator CPU ${m.loadMs.toFixed(3)} ms/req`) +
  (m.serviceMinstr === undefined
    ? ''
    : `; instructions per request: service ${m.serviceMinstr.toFixed(2)} M, PostgreSQL ${m.dbMinstr!.toFixed(2)} M`);

async function measure(c: Ctx, label: string, requests: LoadRequest[], warmup = WARMUP): Promise<Measured> {
  if (warmup > 0) await load(c.base, requests, warmup, CONNECTIONS);
  log(`  ${label}: measuring ${DURATION} s at ${CONNECTIONS} connections...`);
  await profileMark(c, null);
  const backends = async () =>
    (
      await c.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')
    ).rows.map((r) => r.pid);
  const own0 = backendCpuMs(await backends());
  const counting = countPerRequest(servicePids(c));
  const db0 = postgresCpuMs();
  const m = await load(c.base, requests, DURATION, CONNECTIONS);
  m.dbMs = (postgresCpuMs() - db0) / m.total;
  Object.assign(m, await counting.stop(m.total));
  const own1 = backendCpuMs(await backends());
  m.dbOwnMs = [...own1].reduce((sum, [pid, ms]) => sum + ms - (own0.get(pid) ?? 0), 0) / m.total;
  await profileMark(c, `${label}${c.variant ? '-redis' : ''}`);
  const codes = Object.entries(m.statuses)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  log(
    `  ${label}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms (${codes}${m.failed ? `, ${m.failed} failed` : ''}); db CPU ${m.dbMs.toFixed(3)} ms/req (server), ${m.dbOwnMs.toFixed(3)} ms/req (this database's backends)${perRequestCosts(m)}`,
  );
  if (m.failed > 0)
    throw new Error(
      `${label}: ${m.failed} of ${m.total} requests failed (${codes}); the service said:\n${c.service.output().slice(-2000)}`,
    );
  return m;
}

/** What a reused bench database was seeded with (BENCH_REUSE_DB), if it was. */
interface KeptSeed {
  sizes: string;
  tenant: Tenant;
  communityId: string;
  ids: Record<string, string>;
}
async function keptSeed(db: pg.Client): Promise<KeptSeed | undefined> {
  const exists = (await db.query<{ t: string | null }>(`SELECT to_regclass('bench_meta') AS t`)).rows[0].t;
  return exists ? (await db.query<{ meta: KeptSeed }>('SELECT meta FROM bench_meta')).rows[0]?.meta : undefined;
}

/**
 * Every rank board of the seed built in Redis (a board is rebuilt from PostgreSQL by the first
 * read that finds it missing; until it is ready reads are served from PostgreSQL, which is not
 * what the Redis rows are to measure). `fresh`: the boards' keys are dropped first.
 */
async function redisBoardsReady(redisBase: string, c: Ctx, fresh: boolean): Promise<void> {
  const boards = [
    ['xp-small', c.ids.xpSmall],
    ['xp-large', c.ids.xpLarge],
    ['bench-event-score', c.ids.eventScore],
  ].filter((b): b is [string, string] => typeof b[1] === 'string');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const t0 = Date.now();
    for (const [slug, id] of boards) {
      if (fresh) {
        const keys = await redis.keys(`cgs:rank:{${id}}:*`);
        if (keys.length) await redis.del(...keys);
      }
      for (;;) {
        if ((await redis.hget(`cgs:rank:{${id}}:meta`, 'state')) === 'ready') break;
        // A read of the board starts its build (at most one at a time, under a lock).
        await fetch(`${redisBase}/v1/community/${c.communityId}/leaderboard/${slug}?limit=1`, { headers: { 'x-tenant-id': c.tenant.id } });
        if (Date.now() - t0 > 600_000) throw new Error(`the Redis rank board ${slug} was not built within 10 minutes`);
        await sleep(500);
      }
    }
    log(`  Redis rank boards ready (${boards.map((b) => b[0]).join(', ')}) after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    redis.disconnect();
  }
}

/** Round-robin requests for a sample of users, each with its session token. */
async function asUsers(c: Ctx, userIds: string[], path: (i: number) => string): Promise<LoadRequest[]> {
  const tokens = await Promise.all(userIds.map((id) => c.token(id)));
  return tokens.map((tok, i) => ({
    method: 'GET',
    path: path(i),
    headers: { authorization: `Bearer ${tok}`, 'x-tenant-id': c.tenant.id },
  }));
}

const sampleOf = async (c: Ctx, typeId: string, size = SAMPLE): Promise<string[]> =>
  (
    await c.db.query('SELECT user_id FROM resource_balances WHERE resource_type_id = $1 ORDER BY random() LIMIT $2', [typeId, size])
  ).rows.map((r: { user_id: string }) => r.user_id);

const ratioGoal = (c: Ctx, m: Measured, k: number) => m.rps >= k * c.bare().rps;

// ---------------------------------------------------------------------------------------------

/** The bare route (bench/baseline-app.ts) with as many worker processes as the service: a fair limit. */
async function measureBare(name: string): Promise<Measured> {
  const port = await freePort();
  const child = startChild(process.execPath, ['dist/bench/baseline-app.js'], { PORT: String(port), WORKERS: String(WORKERS) });
  try {
    await waitFor200(`http://127.0.0.1:${port}/constant`, child, 20_000);
    const url = `http://127.0.0.1:${port}`;
    await load(url, [{ method: 'GET', path: '/constant' }], WARMUP, CONNECTIONS);
    log(`  ${name}: measuring ${DURATION} s at ${CONNECTIONS} connections...`);
    const counting = countPerRequest(processTree(child.proc.pid!, 'baseline-app.js'));
    const m = await load(url, [{ method: 'GET', path: '/constant' }], DURATION, CONNECTIONS);
    Object.assign(m, await counting.stop(m.total));
    log(`  ${name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${perRequestCosts(m)}`);
    return m;
  } finally {
    await child.stop();
  }
}

/**
 * Login tokens as a community backend makes them (test/e2e/auth-token-login.e2e-spec.ts): JWE dir
 * + A256GCM with the tenant's shared secret, each with a fresh _nonce, precomputed, for 1,000
 * subjects (a warm-up creates their users; then every login is a returning one).
 */
async function loginTokens(c: Ctx, n: number): Promise<string[]> {
  const key = Buffer.from(c.tenant.sharedSecret, 'hex');
  const enc = new TextEncoder();
  const idToken = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ iss: 'https://accounts.provider-b.test', sub: 'x', aud: 'bench' })).toString('base64url')}.${randomBytes(64).toString('base64url')}`;
  const now = Math.floor(Date.now() / 1000);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const payload = {
      _nonce: randomBytes(8).toString('hex'),
      subjectId: `bench-sub-${i % 1000}`,
      handle: `bencher${i % 1000}`,
      idToken,
      accessToken: 'provider-access-token',
      refreshToken: 'provider-refresh-token',
      iat: now,
      exp: now + 300,
    };
    out.push(await new CompactEncrypt(enc.encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key));
  }
  return out;
}

/** One login of each of `loginTokens`' subjects, 32 at a time: their users exist afterwards. */
async function firstLogins(c: Ctx): Promise<void> {
  const tokens = await loginTokens(c, 1000);
  for (let i = 0; i < tokens.length; i += 32)
    await Promise.all(
      tokens.slice(i, i + 32).map(async (token) => {
        const res = await fetch(`${c.base}/v1/user/auth/providerB/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tenant-id': c.tenant.id },
          body: JSON.stringify({ token }),
        });
        if (res.status !== 200) throw new Error(`token-login: a first login answered ${res.status}: ${await res.text()}`);
      }),
    );
}

/** The providerB login, each request with the next of `tokens`. */
function loginRequests(c: Ctx, tokens: string[]): LoadRequest[] {
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/v1/user/auth/providerB/login',
      headers: { 'content-type': 'application/json', 'x-tenant-id': c.tenant.id },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ token: tokens[i++ % tokens.length] }) }),
    },
  ];
}

/**
 * Issue 51's goals: the service's app and database CPU per request over its limit program's
 * (bench/limit/), measured in the same run with the same processes and pool.
 */
const LIMIT_GOALS: Record<string, { id: string; app: number; db: number }> = {
  'token-login': { id: 'L1', app: 1.5, db: 1.1 },
  grant: { id: 'L2', app: 1.5, db: 1.1 },
  purchase: { id: 'L3', app: 1.5, db: 1.1 },
};

/** XP grants through the management API, one fresh idempotency key each, spread over a sample of the xp-small players. */
async function grantRequests(c: Ctx): Promise<LoadRequest[]> {
  const users = await sampleOf(c, c.ids.xpSmall);
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/v1/admin/resources/grants',
      headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          userId: users[i++ % users.length],
          resourceTypeId: c.ids.xpSmall,
          amount: 1,
          reason: 'bench',
          idempotencyKey: randomUUID(),
        }),
      }),
    },
  ];
}

/** Purchases of the hot listing by the store's buyers, a fresh nonce each. */
async function purchaseRequests(c: Ctx): Promise<LoadRequest[]> {
  const listingId = c.ids.listingId;
  const buyers = (await c.db.query('SELECT user_id FROM resource_balances WHERE resource_type_id = $1', [c.ids.gems])).rows.map(
    (r: { user_id: string }) => r.user_id,
  );
  const tokens = await Promise.all(buyers.map((id) => c.token(id)));
  let i = 0;
  return [
    {
      method: 'POST',
      path: `/v1/store/purchase/${listingId}`,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => {
        const k = i++ % tokens.length;
        return {
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${tokens[k]}` },
          body: JSON.stringify({ nonce: randomUUID() }),
        };
      },
    },
  ];
}

/**
 * The store invariants (store issue) after a run: let the requests still in flight when the load
 * stopped commit, then read every count in one statement (one snapshot). Units sold and granted
 * are the sums of the supply shards (the tables' own columns are summaries).
 */
async function purchaseInvariants(c: Ctx): Promise<{ ok: boolean; note: string }> {
  const listingId = c.ids.listingId;
  await sleep(2000);
  const [inv] = (
    await c.db.query<Record<string, number | string>>(
      `SELECT (SELECT COUNT(*) FROM store_purchases WHERE listing_id = $1)::int AS purchases,
              (SELECT COALESCE(SUM(sold), 0) FROM store_listing_shards WHERE listing_id = $1)::int AS sold,
              (SELECT COUNT(*) FROM resource_ledger WHERE resource_type_id = $2 AND reason = 'store_purchase')::int AS debits,
              (SELECT -COALESCE(SUM(delta), 0) FROM resource_ledger WHERE resource_type_id = $2 AND reason = 'store_purchase')::bigint AS spent,
              (SELECT COUNT(*) FROM resource_balances b LEFT JOIN (SELECT user_id, SUM(delta) AS s FROM resource_ledger WHERE resource_type_id = $2 GROUP BY user_id) l
                 ON l.user_id = b.user_id WHERE b.resource_type_id = $2 AND b.balance IS DISTINCT FROM l.s)::int AS drift,
              (SELECT COALESCE(SUM(granted), 0) FROM inventory_item_shards WHERE item_id = $3)::int AS granted,
              (SELECT COALESCE(SUM(quantity), 0) FROM user_items WHERE item_id = $3)::int AS held`,
      [listingId, c.ids.gems, c.ids.itemId],
    )
  ).rows;
  const { purchases, sold, debits, drift, granted, held } = inv as Record<string, number>;
  const spent = Number(inv.spent);
  const ok =
    purchases === sold && debits === purchases && spent === purchases * 10 && drift === 0 && granted === purchases && held === purchases;
  const note = `invariants ${ok ? 'hold' : 'BROKEN'}: ${purchases} purchases = sold ${sold} = debits ${debits} = items granted ${granted} = held ${held}; spent ${spent}; balances ≠ Σ ledger: ${drift}`;
  return { ok, note };
}

/** One measured pass of the limit program `name` (bench/limit/), behind `layers` (the build-up's steps). */
async function measureLimit(
  c: Ctx,
  name: string,
  env: Record<string, string>,
  requests: () => Promise<LoadRequest[]>,
  layers: Layers = 'http',
): Promise<Measured> {
  const port = await freePort();
  const child = startChild(process.execPath, [`dist/bench/limit/${name}.js`], {
    PORT: String(port),
    WORKERS: String(WORKERS),
    POOL: String(POOL),
    PG_URL: c.dbUrl,
    LAYERS: layers,
    ...env,
  });
  try {
    await waitForOutput(child, 'limit listening', 20_000);
    const lc: Ctx = { ...c, base: `http://127.0.0.1:${port}`, service: child, processName: `limit/${name}.js` };
    return await measure(lc, layers === 'http' ? `${name}-limit` : `${name}-via-${layers}`, await requests());
  } finally {
    await child.stop();
  }
}

/**
 * Runs a limit program (dist/bench/limit/<name>.js) with the service's process count and pool on
 * the bench database, measures `requests` against it, then the service once more with fresh
 * requests: service, limit, service. The goal rates the service's second pass, in the steady state
 * the limit is in from its start (a plain program has nothing to warm up); the first pass, right
 * after the service's start, is reported beside it (L5 holds the warm-up).
 */
async function limitRow(c: Ctx, name: string, env: Record<string, string>, requests: () => Promise<LoadRequest[]>): Promise<Row> {
  const first = c.rows.get(name);
  if (!first) throw new Error(`${name}-limit: the ${name} scenario has not run`);
  const m = await measureLimit(c, name, env, requests);
  const again = await measure(c, `${name} (again, after its limit)`, await requests());
  c.rows.set(`${name} (again)`, row(`${name} (again)`, again, c, '', null));
  const goal = LIMIT_GOALS[name];
  const appRatio = again.serviceMs! / m.serviceMs!;
  const dbRatio = again.dbOwnMs! / m.dbOwnMs!;
  const met = appRatio <= goal.app && dbRatio <= goal.db;
  const note = `${goal.id}: service (second pass) / limit app CPU ${appRatio.toFixed(2)}× (${again.serviceMs!.toFixed(3)} / ${m.serviceMs!.toFixed(3)} ms/req), database CPU ${dbRatio.toFixed(2)}× (${again.dbOwnMs!.toFixed(3)} / ${m.dbOwnMs!.toFixed(3)} ms/req), req/s ${fmt(again.rps)} / ${fmt(m.rps)}; the service's first pass after its start: app ${first.serviceMs!.toFixed(3)}, db ${first.dbOwnMs!.toFixed(3)} ms/req, ${fmt(first.rps)} req/s`;
  log(`  ${name}-limit: ${note}`);
  return row(`${name}-limit`, m, c, `${goal.id}: app ≤ ${goal.app}×, db ≤ ${goal.db}× of the limit`, met, note);
}

/**
 * The build-up (issue 51, item 2): the limit program `name` behind one more of the service's
 * layers per step (bench/limit/program.ts), each measured in the same run as the limit and the
 * service, so the table shows what each layer costs and what the service's own code holds.
 */
function buildUp(
  name: string,
  needs: Need[],
  env: (c: Ctx) => Record<string, string>,
  requests: (c: Ctx) => () => Promise<LoadRequest[]>,
): Scenario[] {
  const steps = LAYERS.filter((l): l is Exclude<Layers, 'http'> => l !== 'http');
  return steps.map((layers, i) => ({
    name: `${name}-via-${layers}`,
    needs,
    after: [name, `${name}-limit`, ...steps.slice(0, i).map((l) => `${name}-via-${l}`)],
    run: async (c) => {
      const limit = c.rows.get(`${name}-limit`)!;
      const before = i === 0 ? limit : c.rows.get(`${name}-via-${steps[i - 1]}`)!;
      const service = c.rows.get(`${name} (again)`)!;
      const m = await measureLimit(c, name, env(c), requests(c), layers);
      const note = `build-up of ${LIMIT_GOALS[name].id}: the limit behind ${layers}: app CPU ${m.serviceMs!.toFixed(3)} ms/req (${signed(m.serviceMs! - before.serviceMs!)} over the step before, ${(m.serviceMs! / limit.serviceMs!).toFixed(2)}× the limit; the service ${(service.serviceMs! / limit.serviceMs!).toFixed(2)}×), db CPU ${m.dbOwnMs!.toFixed(3)} ms/req (${(m.dbOwnMs! / limit.dbOwnMs!).toFixed(2)}×)`;
      log(`  ${name}-via-${layers}: ${note}`);
      return row(`${name}-via-${layers}`, m, c, 'a build-up step (reference)', null, note);
    },
  }));
}

const signed = (ms: number) => `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(3)}`;
const grantLimitEnv = (c: Ctx) => ({ TENANT_ID: c.tenant.id, API_KEY: c.tenant.apiKey });
const loginLimitEnv = (c: Ctx) => ({
  TENANT_ID: c.tenant.id,
  SHARED_SECRET: c.tenant.sharedSecret,
  SESSION_SECRET: c.sessionSecret,
  ENCRYPTION_KEY: c.encryptionKey,
});
const loginLimitRequests = (c: Ctx) => async () => loginRequests(c, await loginTokens(c, 6000 * DURATION + 4000 * WARMUP));

const scenarios: Scenario[] = [
  {
    name: 'baseline-nest',
    needs: [],
    run: async (_c) => {
      const m = await measureBare('baseline-nest');
      return row(
        'baseline-nest',
        m,
        null,
        'the framework limit (reference)',
        null,
        `bare NestJS 12 route returning a constant, ${WORKERS} worker process${WORKERS === 1 ? '' : 'es'} like the service`,
      );
    },
  },
  {
    name: 'baseline-pg',
    needs: [],
    run: async (c) => {
      const child = startChild(process.execPath, ['dist/bench/pg-baseline.js'], {
        PG_URL: c.dbUrl,
        PG_SQL: 'SELECT * FROM communities WHERE tenant_id = $1 AND id = $2',
        PG_PARAMS: JSON.stringify([[c.tenant.id, c.communityId]]),
        CONNECTIONS: String(PG_CLIENTS),
        DURATION: String(DURATION),
      });
      log(`  baseline-pg: ${PG_CLIENTS} pg clients, closed loop, ${DURATION} s...`);
      await new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
      const m = JSON.parse(child.output().trim().split('\n').pop()!) as Measured;
      log(`  baseline-pg: ${m.rps.toFixed(0)} queries/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms`);
      return row(
        'baseline-pg',
        m,
        c,
        'the database limit (reference)',
        null,
        `raw pg: the community row by id, no HTTP, ${PG_CLIENTS} clients (the service's total pool: ${WORKERS} × ${POOL})`,
      );
    },
  },
  {
    name: 'community',
    needs: [],
    run: async (c) => {
      const users = (await c.db.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT $2', [c.tenant.id, SAMPLE])).rows.map(
        (r: { id: string }) => r.id,
      );
      const m = await measure(c, 'community', await asUsers(c, users, () => `/v1/community/${c.communityId}`));
      return row('community', m, c, '≥ 0.5× bare req/s', ratioGoal(c, m, 0.5), 'GET /v1/community/{id} with a session token');
    },
  },
  {
    name: 'ranking-10k',
    ranks: true,
    needs: ['small'],
    run: async (c) => {
      const m = await measure(
        c,
        'ranking-10k',
        await asUsers(c, await sampleOf(c, c.ids.xpSmall), () => `/v1/community/${c.communityId}/ranking/xp-small`),
      );
      return row(
        'ranking-10k',
        m,
        c,
        '(reference for ranking-1m)',
        null,
        `GET /v1/community/{id}/ranking/{slug}, ${SMALL.toLocaleString('en')} ranked users`,
      );
    },
  },
  {
    name: 'ranking-1m',
    ranks: true,
    needs: ['large'],
    after: ['ranking-10k'],
    run: async (c) => {
      const m = await measure(
        c,
        'ranking-1m',
        await asUsers(c, await sampleOf(c, c.ids.xpLarge), () => `/v1/community/${c.communityId}/ranking/xp-large`),
      );
      const small = c.rows.get(`ranking-10k${c.variant}`);
      // P2: the ratio with Redis, a lower one without (PostgreSQL's prefix counters), and a rank at
      // 1M that costs little more than at 10k.
      const k = c.variant ? 0.4 : 0.25;
      const rps = ratioGoal(c, m, k);
      const log = small ? m.p50 <= 1.5 * small.p50 : false;
      const note = `rps ${rps ? 'ok' : 'low'}; p50 ${m.p50} vs ${small ? (1.5 * small.p50).toFixed(2) : '?'} allowed (1.5× p50 at 10k); p99 ${m.p99} ms`;
      return row(`ranking-${human(LARGE)}`, m, c, `≥ ${k}× bare req/s; p50 ≤ 1.5× p50 at 10k`, rps && log, note);
    },
  },
  {
    name: 'leaderboard-1m',
    ranks: true,
    needs: ['large'],
    run: async (c) => {
      // Pages spread over the whole board: the first ones and deep ones (OFFSET grows with the page).
      const pages = [1, 2, 3, 10, 100, 1000];
      const m = await measure(
        c,
        'leaderboard-1m',
        pages.map((p) => ({
          method: 'GET',
          path: `/v1/community/${c.communityId}/leaderboard/xp-large?limit=50&page=${p}`,
          headers: { 'x-tenant-id': c.tenant.id },
        })),
      );
      return row(
        `leaderboard-${human(LARGE)}`,
        m,
        c,
        '≥ 0.3× bare req/s',
        ratioGoal(c, m, 0.3),
        'community leaderboard, limit 50, pages 1,2,3,10,100,1000',
      );
    },
  },
  {
    // The live season of xp-large: 1M players ranked by what they earned this week (season_scores
    // and the season board's prefix counters; PostgreSQL in both deployments).
    name: 'season-ranking-1m',
    needs: ['large', 'season'],
    after: ['ranking-10k'],
    run: async (c) => {
      const users = (await c.db.query('SELECT user_id FROM season_scores WHERE season_id = $1 LIMIT $2', [c.ids.season, SAMPLE])).rows.map(
        (r: { user_id: string }) => r.user_id,
      );
      const m = await measure(
        c,
        'season-ranking-1m',
        await asUsers(c, users, () => `/v1/community/${c.communityId}/ranking/xp-large?season=current`),
      );
      const small = c.rows.get(`ranking-10k${c.variant}`);
      // The all-time ranking's goal (P2, PostgreSQL deployment).
      const rps = ratioGoal(c, m, 0.25);
      const log = small ? m.p50 <= 1.5 * small.p50 : false;
      const note = `rps ${rps ? 'ok' : 'low'}; p50 ${m.p50} vs ${small ? (1.5 * small.p50).toFixed(2) : '?'} allowed (1.5× p50 of ranking-10k); p99 ${m.p99} ms`;
      return row(`season-ranking-${human(LARGE)}`, m, c, '≥ 0.25× bare req/s; p50 ≤ 1.5× p50 of ranking-10k', rps && log, note);
    },
  },
  {
    name: 'season-leaderboard-1m',
    needs: ['large', 'season'],
    run: async (c) => {
      const pages = [1, 2, 3, 10, 100, 1000];
      const m = await measure(
        c,
        'season-leaderboard-1m',
        pages.map((p) => ({
          method: 'GET',
          path: `/v1/community/${c.communityId}/leaderboard/xp-large?season=current&limit=50&page=${p}`,
          headers: { 'x-tenant-id': c.tenant.id },
        })),
      );
      return row(
        `season-leaderboard-${human(LARGE)}`,
        m,
        c,
        '≥ 0.3× bare req/s',
        ratioGoal(c, m, 0.3),
        'live season leaderboard (?season=current), limit 50, pages 1,2,3,10,100,1000',
      );
    },
  },
  {
    // Issue 19.5: the close of that season (1M ranked, the first 10,000 rewarded through the ledger)
    // by the service's season worker, while players read their all-time ranking and a probe grants
    // XP to winners (it waits on the balance rows a payout batch holds). Ends the season:
    // it runs after the two season scenarios, and a reused database (BENCH_REUSE_DB) needs a new seed.
    name: 'season-close-1m',
    needs: ['large', 'season'],
    after: ['season-ranking-1m', 'season-leaderboard-1m'],
    run: async (c) => {
      const rewards = [{ fromRank: 1, toRank: 10_000, type: 'resource', refId: c.ids.xpLarge, amount: 1 }];
      // The places the close pays (the freeze's order): a probe grants them XP while it runs, so it
      // waits on every balance row a payout batch holds.
      const winners = (
        await c.db.query<{ user_id: string }>(
          'SELECT user_id FROM season_scores WHERE season_id = $1 ORDER BY score DESC, reached_at, user_id LIMIT 10000',
          [c.ids.season],
        )
      ).rows.map((r) => r.user_id);
      await c.db.query(`UPDATE seasons SET rewards = $2, ends_at = now() - interval '11 seconds' WHERE id = $1`, [
        c.ids.season,
        JSON.stringify(rewards),
      ]);
      const state = async () =>
        (
          await c.db.query<{ lease_owner: string | null; closed_at: Date | null; paid_through: number }>(
            'SELECT lease_owner, closed_at, paid_through FROM seasons WHERE id = $1',
            [c.ids.season],
          )
        ).rows[0];
      // The worker polls every SEASON_POLL_INTERVAL_MS (5 s): wait for its claim.
      const waitUntil = Date.now() + 60_000;
      while (!(await state()).lease_owner && !(await state()).closed_at && Date.now() < waitUntil) await sleep(20);
      const t0 = Date.now();
      // Grant latencies while the reads load the service, and after (the close alone).
      const grantMs: number[] = [];
      const quietGrantMs: number[] = [];
      let reading = true;
      let closing = true;
      const probing = (async () => {
        for (let k = 0; closing; k++) {
          const a = Date.now();
          const res = await fetch(`${c.base}/v1/admin/resources/grants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
            body: JSON.stringify({
              userId: winners[(k * 7919) % winners.length],
              resourceTypeId: c.ids.xpLarge,
              amount: 1,
              reason: 'probe',
              idempotencyKey: `close-probe-${randomUUID()}`,
            }),
          });
          if (!res.ok) throw new Error(`season-close probe: grant answered ${res.status}`);
          (reading ? grantMs : quietGrantMs).push(Date.now() - a);
        }
      })();
      // The longest a statement of this database was seen waiting on a lock (sampled every 10 ms):
      // the probe's latency also holds its queueing behind the reads, this is the stall alone.
      let lockWaitMs = 0;
      const sampling = (async () => {
        while (closing) {
          const { rows } = await c.db.query<{ ms: number | null }>(
            `SELECT (extract(epoch FROM max(clock_timestamp() - query_start)) * 1000)::int AS ms FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          lockWaitMs = Math.max(lockWaitMs, rows[0].ms ?? 0);
          await sleep(10);
        }
      })();
      const users = await sampleOf(c, c.ids.xpLarge);
      const m = await measure(c, 'season-close-1m', await asUsers(c, users, () => `/v1/community/${c.communityId}/ranking/xp-large`), 0);
      reading = false;
      let s = await state();
      while (!s.closed_at && Date.now() - t0 < 600_000) {
        await sleep(200);
        s = await state();
      }
      const closeMs = s.closed_at ? Date.now() - t0 : null;
      closing = false;
      await Promise.all([probing, sampling]);
      const latencies = (ms: number[]) => {
        ms.sort((a, b) => a - b);
        return `${ms.length}, p50 ${percentile(ms, 50)} ms, p99 ${percentile(ms, 99)} ms, max ${ms[ms.length - 1] ?? '?'} ms`;
      };
      const grants = `XP grants to winners during the close: with the reads ${latencies(grantMs)}; after them ${latencies(quietGrantMs)}; longest lock wait seen ${lockWaitMs} ms`;
      const met = closeMs !== null && closeMs < 60_000 && m.p99 <= 100;
      return row(
        `season-close-${human(LARGE)}`,
        m,
        c,
        'close < 60 s; p99 of the concurrent reads ≤ 100 ms',
        met,
        `close ${closeMs === null ? 'not finished in 10 min' : `${(closeMs / 1000).toFixed(1)} s`} (${s.paid_through.toLocaleString('en')} places paid); reads: all-time ranking of xp-large during the first ${DURATION} s; ${grants}`,
      );
    },
  },
  {
    name: 'event-leaderboard-1m',
    ranks: true,
    needs: ['event'],
    run: async (c) => {
      const users = await sampleOf(c, c.ids.eventScore);
      const pages = [1, 2, 3, 10, 100, 1000];
      const m = await measure(
        c,
        'event-leaderboard-1m',
        await asUsers(
          c,
          users.slice(0, 60),
          (i) => `/v1/quest-event/${c.ids.eventId}/leaderboard?limit=50&page=${pages[i % pages.length]}`,
        ),
      );
      return row(
        `event-leaderboard-${human(LARGE)}`,
        m,
        c,
        '≥ 0.3× bare req/s',
        ratioGoal(c, m, 0.3),
        'quest event leaderboard, limit 50, pages 1,2,3,10,100,1000',
      );
    },
  },
  {
    name: 'live-event-1m',
    ranks: true,
    needs: ['large', 'event'],
    run: async (c) => {
      // A live event on one community at 1M ranked players: readers (leaderboard pages, their own
      // ranking, the event leaderboard) and, at the same time, the game backend's writes (XP grants
      // and event score updates through the management API) on connections of their own; and a
      // probe that writes and then reads until it sees its write, for the staleness figure.
      const users = await sampleOf(c, c.ids.xpLarge, Math.max(SAMPLE, LIVE_READERS));
      const participants = await sampleOf(c, c.ids.eventScore);
      const pages = [1, 2, 3, 10, 100];
      const readerTokens = await Promise.all(users.slice(0, LIVE_READERS).map((id) => c.token(id)));
      let r = 0;
      const reads: LoadRequest[] = [
        {
          method: 'GET',
          path: '/',
          setupRequest: (req) => {
            const k = r++;
            const auth = { authorization: `Bearer ${readerTokens[k % readerTokens.length]}`, 'x-tenant-id': c.tenant.id };
            const kind = k % 3;
            const path =
              kind === 0
                ? `/v1/community/${c.communityId}/leaderboard/xp-large?limit=50&page=${pages[k % pages.length]}`
                : kind === 1
                  ? `/v1/community/${c.communityId}/ranking/xp-large`
                  : `/v1/quest-event/${c.ids.eventId}/leaderboard?limit=50&page=${pages[k % pages.length]}`;
            return { ...req, path, headers: auth };
          },
        },
      ];
      let w = 0;
      const writes: LoadRequest[] = [
        {
          method: 'POST',
          path: '/v1/admin/resources/grants',
          setupRequest: (req) => {
            const k = w++;
            const event = k % 2 === 1;
            const body = {
              userId: event ? participants[k % participants.length] : users[k % users.length],
              resourceTypeId: event ? c.ids.eventScore : c.ids.xpLarge,
              amount: 1 + (k % 50),
              reason: 'live-event',
              idempotencyKey: `live-${randomUUID()}`,
            };
            return {
              ...req,
              headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
              body: JSON.stringify(body),
            };
          },
        },
      ];
      const writeConnections =
        env.BENCH_LIVE_WRITERS !== undefined ? Number(env.BENCH_LIVE_WRITERS) : Math.max(1, Math.round(CONNECTIONS / 5));
      const readConnections = CONNECTIONS - writeConnections;
      const writeRate = env.BENCH_LIVE_WRITE_RATE ? Number(env.BENCH_LIVE_WRITE_RATE) : undefined;
      await Promise.all([load(c.base, reads, WARMUP, readConnections), load(c.base, writes, WARMUP, writeConnections, writeRate)]);

      // The probe: a player who climbs to the top with each grant; after the grant's 2xx, page 1 of
      // the leaderboard (cached per process) is read until it shows the new amount. Every read may
      // land on either worker, so a figure is the time until the first read that saw it.
      const probe = users[users.length - 1];
      const top = BigInt(
        (
          await c.db.query<{ m: string }>('SELECT max(earned)::text AS m FROM resource_balances WHERE resource_type_id = $1', [
            c.ids.xpLarge,
          ])
        ).rows[0].m,
      );
      const amount = top + 1000n;
      const lags: number[] = [];
      let running = true;
      const probing = (async () => {
        await fetch(`${c.base}/v1/admin/resources/grants`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
          body: JSON.stringify({
            userId: probe,
            resourceTypeId: c.ids.xpLarge,
            amount: Number(amount),
            reason: 'probe',
            idempotencyKey: `probe-${randomUUID()}`,
          }),
        });
        const earned = await c.db.query('SELECT earned::text AS e FROM resource_balances WHERE user_id = $1 AND resource_type_id = $2', [
          probe,
          c.ids.xpLarge,
        ]);
        let expected = Number((earned.rows[0] as { e: string }).e);
        while (running) {
          const res = await fetch(`${c.base}/v1/admin/resources/grants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
            body: JSON.stringify({
              userId: probe,
              resourceTypeId: c.ids.xpLarge,
              amount: 100,
              reason: 'probe',
              idempotencyKey: `probe-${randomUUID()}`,
            }),
          });
          if (!res.ok) throw new Error(`live-event probe: grant answered ${res.status}`);
          expected += 100;
          const t0 = Date.now();
          for (;;) {
            const page = (await (
              await fetch(`${c.base}/v1/community/${c.communityId}/leaderboard/xp-large?limit=1`, {
                headers: { 'x-tenant-id': c.tenant.id },
              })
            ).json()) as { items: { userId: string; amount: number }[] };
            if (page.items[0]?.userId === probe && page.items[0].amount >= expected) break;
            if (Date.now() - t0 > 10_000) throw new Error('live-event probe: a grant did not show on the leaderboard within 10 s');
            await sleep(2);
          }
          lags.push(Date.now() - t0);
          await sleep(50);
        }
      })();
      log(`  live-event: measuring ${DURATION} s: ${readConnections} reader and ${writeConnections} writer connections, and the probe...`);
      await profileMark(c, null);
      const counting = countPerRequest(servicePids(c));
      const db0 = postgresCpuMs();
      const [mr, mw] = await Promise.all([
        load(c.base, reads, DURATION, readConnections),
        load(c.base, writes, DURATION, writeConnections, writeRate),
      ]);
      // Per request of either kind: the database's share of the whole mix.
      mr.dbMs = (postgresCpuMs() - db0) / (mr.total + mw.total);
      Object.assign(mr, await counting.stop(mr.total + mw.total));
      await profileMark(c, `live-event${c.variant ? '-redis' : ''}`);
      running = false;
      await probing;
      lags.sort((x, y) => x - y);
      const p99Lag = lags[Math.min(lags.length - 1, Math.floor(0.99 * lags.length))] ?? NaN;
      const failed = mr.failed + mw.failed;
      if (failed > 0)
        throw new Error(
          `live-event: ${failed} requests failed (reads ${JSON.stringify(mr.statuses)}, writes ${JSON.stringify(mw.statuses)})`,
        );
      const readsOk = ratioGoal(c, mr, 0.4);
      const note = `reads ${mr.rps.toFixed(0)}/s (p50 ${mr.p50} ms, p99 ${mr.p99} ms) while writes ran at ${mw.rps.toFixed(0)}/s (p99 ${mw.p99} ms, ${((100 * mw.rps) / (mr.rps + mw.rps)).toFixed(0)} % of requests); staleness of leaderboard page 1 after a write: p50 ${lags[Math.floor(lags.length / 2)] ?? '?'} ms, p99 ${p99Lag} ms over ${lags.length} probes`;
      log(`  live-event: ${note}; db CPU ${mr.dbMs.toFixed(3)} ms per request of the mix${perRequestCosts(mr)}`);
      return row(
        `live-event-${human(LARGE)}`,
        mr,
        c,
        '≥ 0.4× bare req/s (reads, writes running); staleness p99 ≤ 1 s',
        readsOk && p99Lag <= 1000,
        note,
      );
    },
  },
  {
    name: 'token-login',
    needs: [],
    run: async (c) => {
      // Every subject logs in once first: the measured runs, the service's and its limit's, are returning logins only.
      await firstLogins(c);
      const t0 = process.hrtime.bigint();
      const warm = await loginTokens(c, Math.max(2000, 1500 * WARMUP));
      const measured = await loginTokens(c, 3000 * DURATION);
      log(`  token-login: ${(warm.length + measured.length).toLocaleString('en')} tokens encrypted in ${(since(t0) / 1000).toFixed(1)} s`);
      await load(c.base, loginRequests(c, warm), WARMUP, CONNECTIONS);
      const m = await measure(c, 'token-login', loginRequests(c, measured), 0);
      if (m.total > measured.length) throw new Error('token-login: more requests than precomputed tokens (replays); raise the token count');
      return row(
        'token-login',
        m,
        c,
        '≥ 0.15× bare req/s',
        ratioGoal(c, m, 0.15),
        'POST /v1/user/auth/providerB/login, JWE with a fresh _nonce, returning users',
      );
    },
  },
  {
    name: 'grant',
    // Listed after the rank scenarios of xp-small: its grants move that board.
    needs: ['small'],
    run: async (c) => {
      const m = await measure(c, 'grant', await grantRequests(c));
      return row(
        'grant',
        m,
        c,
        'the L2 reference (grant-limit rates it)',
        null,
        'POST /v1/admin/resources/grants, XP to 1,000 players, fresh keys',
      );
    },
  },
  {
    name: 'grant-limit',
    needs: ['small'],
    after: ['grant'],
    run: (c) => limitRow(c, 'grant', grantLimitEnv(c), () => grantRequests(c)),
  },
  ...buildUp('grant', ['small'], grantLimitEnv, (c) => () => grantRequests(c)),
  {
    name: 'token-login-limit',
    needs: [],
    after: ['token-login'],
    run: (c) => limitRow(c, 'token-login', loginLimitEnv(c), loginLimitRequests(c)),
  },
  ...buildUp('token-login', [], loginLimitEnv, loginLimitRequests),
  {
    name: 'purchase',
    needs: ['store'],
    run: async (c) => {
      const m = await measure(c, 'purchase', await purchaseRequests(c));
      const { ok, note } = await purchaseInvariants(c);
      log(`  purchase: ${note}`);
      return row(
        'purchase',
        m,
        c,
        '≥ 500 purchases/s, invariants hold',
        m.rps >= 500 && ok,
        `POST /v1/store/purchase/{id}, one hot listing, ${BUYERS} buyers, new nonces; ${note}`,
      );
    },
  },
  {
    name: 'purchase-limit',
    needs: ['store'],
    after: ['purchase'],
    run: async (c) => {
      const r = await limitRow(c, 'purchase', { SESSION_SECRET: c.sessionSecret }, () => purchaseRequests(c));
      // The invariants after all three passes: the limit's purchases are the service's rows.
      const { ok, note } = await purchaseInvariants(c);
      log(`  purchase-limit: ${note}`);
      return { ...r, met: r.met === true && ok, note: `${r.note}; ${note}` };
    },
  },
  ...buildUp(
    'purchase',
    ['store'],
    (c) => ({ SESSION_SECRET: c.sessionSecret }),
    (c) => () => purchaseRequests(c),
  ),
  {
    name: 'quest-events',
    needs: ['quests'],
    run: async (c) => {
      const users = (await c.db.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT 200', [c.tenant.id])).rows.map(
        (r: { id: string }) => r.id,
      );
      const queries = [
        'page=1&limit=20',
        `filter[containerId]=${c.communityId}&filter[status]=active&filter[status]=registration_open&limit=20`,
        'filter[features]=score-based&registrationOpen=true&limit=20',
        'participating=false&filter[status]=completed&page=5&limit=20',
      ];
      const m = await measure(c, 'quest-events', await asUsers(c, users, (i) => `/v1/quest-event?${queries[i % queries.length]}`));
      return row(
        'quest-events',
        m,
        c,
        '≥ 0.3× bare req/s',
        ratioGoal(c, m, 0.3),
        `GET /v1/quest-event with filters, ${EVENTS.toLocaleString('en')} events`,
      );
    },
  },
  {
    name: 'community-quests',
    needs: ['quests'],
    run: async (c) => {
      const users = (await c.db.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT 200', [c.tenant.id])).rows.map(
        (r: { id: string }) => r.id,
      );
      const queries = [
        'tags=daily&questTypes=&featured=&query=&page=1&limit=20',
        'tags=&questTypes=social&featured=true&query=&page=1&limit=20',
        'tags=twitter,discord&questTypes=quiz,visit&featured=&query=&page=3&limit=20',
        'tags=&questTypes=&featured=&query=raid&page=1&limit=20',
      ];
      const m = await measure(
        c,
        'community-quests',
        await asUsers(c, users, (i) => `/v1/community/${c.communityId}/quests?${queries[i % queries.length]}`),
      );
      return row(
        'community-quests',
        m,
        c,
        '≥ 0.3× bare req/s',
        ratioGoal(c, m, 0.3),
        `GET /v1/community/{id}/quests with filters, ${QUESTS.toLocaleString('en')} quests`,
      );
    },
  },
  {
    // A player's claim of a quest the service checks itself (a game_event task the players have
    // not reached yet: the common case of a "verify" press), and the game server's ingest of the
    // events that task counts, one per request and a hundred per request.
    name: 'quest-claim',
    needs: ['play'],
    run: async (c) => {
      const users = (await c.db.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT 200', [c.tenant.id])).rows.map(
        (r: { id: string }) => r.id,
      );
      const tokens = await Promise.all(users.map((id) => c.token(id)));
      let i = 0;
      const requests: LoadRequest[] = [
        {
          method: 'POST',
          path: `/v1/quests/${c.ids.playQuest}/claim`,
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[i++ % tokens.length]}` } }),
        },
      ];
      const m = await measure(c, 'quest-claim', requests);
      return row(
        'quest-claim',
        m,
        c,
        'reported',
        null,
        `POST /v1/quests/{id}/claim, a game_event task (count of match_won events this period) not reached yet, ${users.length} players`,
      );
    },
  },
  ...([1, 100] as const).map((batch): Scenario => ({
    name: `events-ingest-${batch}`,
    needs: ['play'],
    run: async (c) => {
      const users = (await c.db.query('SELECT id FROM users WHERE tenant_id = $1 LIMIT 200', [c.tenant.id])).rows.map(
        (r: { id: string }) => r.id,
      );
      let n = 0;
      const requests: LoadRequest[] = [
        {
          method: 'POST',
          path: '/v1/admin/events',
          headers: { 'content-type': 'application/json', 'x-api-key': c.tenant.apiKey },
          setupRequest: (req) => {
            const events = Array.from({ length: batch }, () => ({
              userId: users[n % users.length],
              type: 'match_won',
              idempotencyKey: `bench-${batch}-${n++}-${randomUUID()}`,
            }));
            return { ...req, body: JSON.stringify({ events }) };
          },
        },
      ];
      const m = await measure(c, `events-ingest-${batch}`, requests);
      return row(
        `events-ingest-${batch}`,
        m,
        c,
        'reported',
        null,
        `POST /v1/admin/events, ${batch} event${batch === 1 ? '' : 's'} per request (${fmt(m.rps * batch)} events/s), idempotency keys new`,
      );
    },
  })),
  {
    // The bare route again after every other scenario: how far the machine's speed moved over the
    // run (the scenarios' ratios are all to the first measurement; this says whether the later
    // ones ran on a slower or faster machine than the limit they are compared with).
    name: 'baseline-nest-end',
    needs: [],
    run: async (c) => {
      const m = await measureBare('baseline-nest-end');
      const first = c.bare();
      return row(
        'baseline-nest-end',
        m,
        c,
        'the framework limit at the end of the run (reference)',
        null,
        `the bare route again, after the other scenarios: ${(100 * (m.rps / first.rps - 1)).toFixed(0)} % against the first, service CPU ${fmt(m.serviceMs ?? NaN, 3)} against ${fmt(first.serviceMs ?? NaN, 3)} ms per request`,
      );
    },
  },
  {
    name: 'cold-start',
    needs: [],
    run: async (_c) => {
      // `npm start` as on a fresh clone: no DATABASE_URL, an empty data directory (so initdb of the
      // embedded PostgreSQL, all migrations and the demo tenant), timed to the first 200 of
      // /health/ready (the database answers), with the lines printed until then; idle RSS of the
      // Node process after 10 s; then the same `npm start` again on that data directory (a restart).
      const dir = mkdtempSync(join(tmpdir(), 'cgs-bench-cold-'));
      chmodSync(dir, 0o755);
      const { DATABASE_URL: _omit, ...rest } = process.env;
      void _omit;
      const start = async (measureRss: boolean) => {
        const port = await freePort();
        const t0 = Date.now();
        const child = startChild('npm', ['start', '--silent'], {
          ...rest,
          DATABASE_URL: undefined,
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: join(dir, 'data'),
          EMBEDDED_PG_PORT: String(await freePort()),
        });
        try {
          await waitFor200(`http://127.0.0.1:${port}/health/ready`, child, 60_000);
          const seconds = (Date.now() - t0) / 1000;
          const lines = child.output().split('\n').length - 1;
          let rss = NaN;
          if (measureRss) {
            await sleep(10_000);
            const pid = findDescendant(child.proc.pid!, 'dist/src/main.js');
            rss = pid ? rssMb(pid) : NaN;
          }
          return { seconds, lines, rss };
        } finally {
          const pid = findDescendant(child.proc.pid!, 'dist/src/main.js');
          if (pid) process.kill(pid, 'SIGTERM');
          await child.stop();
        }
      };
      try {
        const fresh = await start(true);
        log(
          `  cold-start: first 200 after ${fresh.seconds.toFixed(2)} s, ${fresh.lines} lines printed; idle RSS ${fresh.rss.toFixed(0)} MB`,
        );
        const again = await start(false);
        log(`  cold-start: a restart, first 200 after ${again.seconds.toFixed(2)} s, ${again.lines} lines printed`);
        const met = Math.max(fresh.seconds, again.seconds) <= 5 && Math.max(fresh.lines, again.lines) <= 30 && fresh.rss <= 250;
        return {
          scenario: 'cold-start',
          rps: 0,
          p50: 0,
          p99: 0,
          ratio: null,
          goal: '≤ 5 s and ≤ 30 lines to the first 200; idle RSS ≤ 250 MB',
          met,
          note:
            `a fresh clone: ${fresh.seconds.toFixed(2)} s to the first 200 (initdb + migrations), ${fresh.lines} lines printed until then; ` +
            `a restart: ${again.seconds.toFixed(2)} s, ${again.lines} lines; idle RSS ${fresh.rss.toFixed(0)} MB ` +
            '(npm start as a new user runs it: one process, WEB_CONCURRENCY=1)',
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

// ---------------------------------------------------------------------------------------------

async function seed(c: Ctx, needs: Set<Need>): Promise<void> {
  const { db, tenant } = c;
  const t0 = process.hrtime.bigint();
  log('seeding...');
  const big = needs.has('large') || needs.has('event');
  await seedUsers(db, tenant.id, Math.max(big ? LARGE : SMALL, BUYERS));
  if (needs.has('small'))
    await seedBalances(db, tenant.id, (c.ids.xpSmall = await resourceType(db, tenant.id, c.communityId, 'xp-small', 'global')), SMALL);
  if (needs.has('large'))
    await seedBalances(db, tenant.id, (c.ids.xpLarge = await resourceType(db, tenant.id, c.communityId, 'xp-large', 'global')), LARGE);
  if (needs.has('season')) c.ids.season = await seedSeason(db, tenant.id, c.communityId, c.ids.xpLarge, LARGE);
  if (needs.has('event')) {
    const now = Date.now();
    const day = 86_400_000;
    const ev = await db.query(
      `INSERT INTO quest_events (tenant_id, community_id, slug, name, features, state, registration_starts_at, registration_ends_at, starts_at, ends_at)
       VALUES ($1, $2, 'bench-event', 'Bench event', '{score-based}', 'published', $3, $4, $5, $6) RETURNING id`,
      [tenant.id, c.communityId, new Date(now - 10 * day), new Date(now + 5 * day), new Date(now - 5 * day), new Date(now + 30 * day)],
    );
    c.ids.eventId = (ev.rows[0] as { id: string }).id;
    c.ids.eventScore = await resourceType(db, tenant.id, c.communityId, 'bench-event-score', 'scoped', c.ids.eventId);
    await db.query('UPDATE quest_events SET score_resource_type_id = $1 WHERE id = $2', [c.ids.eventScore, c.ids.eventId]);
    await seedBalances(db, tenant.id, c.ids.eventScore, LARGE, 100_000);
    // Only REGISTERED participants hold an event score: one participant row per ranked user.
    await db.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, score, registered_at, status_changed_at)
       SELECT $1, $2, user_id, 1, 0, earned_at, earned_at FROM resource_balances WHERE resource_type_id = $3`,
      [tenant.id, c.ids.eventId, c.ids.eventScore],
    );
    await db.query('UPDATE quest_events SET registered_count = $1 WHERE id = $2', [LARGE, c.ids.eventId]);
  }
  if (needs.has('quests')) await seedQuests(db, tenant.id, c.communityId, EVENTS, QUESTS);
  if (needs.has('play')) {
    const post = async (path: string, body: object) => {
      const res = await fetch(`${c.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    c.ids.playQuest = await post('/v1/admin/quests', {
      communityId: c.communityId,
      name: 'Win a million matches',
      type: 'match',
      recurrence: 'daily',
    });
    await post(`/v1/admin/quests/${c.ids.playQuest}/tasks`, {
      kind: 'game_event',
      title: 'Win a million matches today',
      gameEvent: { eventType: 'match_won', aggregate: 'count', atLeast: 1_000_000 },
    });
    log('  play: a daily quest with a game_event task no player reaches');
  }
  if (needs.has('store')) {
    const admin = async (path: string, body: object) => {
      const res = await fetch(`${c.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    c.ids.gems = await admin('/v1/admin/resources/types', { communityId: c.communityId, slug: 'gems', name: 'Gems', kind: 'global' });
    const slot = await admin('/v1/admin/inventory/slots', { communityId: c.communityId, key: 'hand', name: 'Hand' });
    c.ids.itemId = await admin('/v1/admin/inventory/items', { communityId: c.communityId, slotId: slot, name: 'Sword' });
    c.ids.listingId = await admin('/v1/admin/store/listings', {
      communityId: c.communityId,
      name: 'Sword',
      kind: 'item',
      itemId: c.ids.itemId,
      price: [{ resourceTypeId: c.ids.gems, amount: 10 }],
      totalSupply: 100_000_000,
    });
    await db.query(
      `CREATE TEMP TABLE buyers AS SELECT id AS user_id FROM users WHERE tenant_id = $1 ORDER BY handle_normalized DESC LIMIT $2`,
      [tenant.id, BUYERS],
    );
    await db.query(
      `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at) SELECT $1, user_id, $2, 1000000000, 1000000000, now(), now() FROM buyers`,
      [c.ids.gems, tenant.id],
    );
    await db.query(
      `INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, created_at) SELECT $2, $1, user_id, 1000000000, 1000000000, 'bench_seed', now() FROM buyers`,
      [c.ids.gems, tenant.id],
    );
    await db.query(
      `INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
       SELECT $1, l, 1000000000::bigint >> (4 * l), COUNT(*) FROM buyers, generate_series(0, 13) AS l WHERE (1000000000::bigint >> (4 * l)) > 0 GROUP BY 2, 3`,
      [c.ids.gems],
    );
    await db.query('DROP TABLE buyers');
    log(`  store: one item listing (price 10 gems), ${BUYERS} buyers with 1e9 gems each`);
  }
  // Settle the freshly loaded tables now, so neither autovacuum nor the checkpoint of the loaded
  // rows (gigabytes of dirty pages after a million users) runs during a measurement.
  const t1 = process.hrtime.bigint();
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  log(`  VACUUM ANALYZE and CHECKPOINT in ${(since(t1) / 1000).toFixed(1)} s; seeding done in ${(since(t0) / 1000).toFixed(1)} s`);
}

function select(args: string[]): Scenario[] {
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  if (args.length === 0) return scenarios;
  const chosen = new Set<string>(['baseline-nest']);
  for (const a of args.map((x) => x.toLowerCase())) {
    const s = byName.get(a);
    if (!s) throw new Error(`unknown scenario "${a}"; scenarios: ${scenarios.map((x) => x.name).join(', ')}`);
    for (const dep of s.after ?? []) chosen.add(dep);
    chosen.add(a);
  }
  return scenarios.filter((s) => chosen.has(s.name));
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

function table(rows: Row[]): string {
  const head = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    '× bare',
    'service CPU ms/req',
    'db CPU ms/req',
    'goal',
    'met',
    ...(PERF ? ['M instr/req service / db'] : []),
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.scenario === 'cold-start' ? '—' : fmt(r.rps),
    r.scenario === 'cold-start' ? '—' : fmt(r.p50, r.p50 % 1 ? 2 : 0),
    r.scenario === 'cold-start' ? '—' : fmt(r.p99, r.p99 % 1 ? 2 : 0),
    r.ratio === null ? '—' : fmt(r.ratio, 2),
    r.serviceMs === undefined ? '—' : fmt(r.serviceMs, 3),
    r.dbMs === undefined ? '—' : fmt(r.dbMs, 3),
    r.goal,
    r.met === null ? '' : r.met ? 'met' : 'NOT MET',
    ...(PERF ? [r.serviceMinstr === undefined ? '—' : `${fmt(r.serviceMinstr, 2)} / ${fmt(r.dbMinstr!, 2)}`] : []),
  ]);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n');
}

async function main(): Promise<void> {
  const chosen = select(process.argv.slice(2).filter((a) => a !== '--'));
  // A reused database holds everything, so any selection can run on it.
  const needs = new Set((env.BENCH_REUSE_DB ? scenarios : chosen).flatMap((s) => s.needs));
  const started = Date.now();
  log(`bench: ${chosen.map((s) => s.name).join(', ')}`);
  log(
    `  ${CONNECTIONS} connections, ${DURATION} s per scenario after a ${WARMUP} s warm-up; large = ${LARGE.toLocaleString('en')}; service WEB_CONCURRENCY=${WORKERS}; Node ${process.version}`,
  );

  // 1. A database server and a fresh database.
  let embedded: { stop: () => Promise<void> } | undefined;
  let tmp: string | undefined;
  let adminUrl: string;
  if (env.DATABASE_URL) {
    const u = new URL(env.DATABASE_URL);
    u.pathname = '/postgres';
    adminUrl = u.toString();
  } else {
    const { EmbeddedDatabase } = await import('../src/database/embedded-postgres.js');
    tmp = mkdtempSync(join(tmpdir(), 'cgs-bench-pg-'));
    chmodSync(tmp, 0o755);
    const edb = new EmbeddedDatabase({ dataDir: join(tmp, 'data'), port: await freePort(), database: 'postgres', persistent: false });
    log('starting embedded PostgreSQL...');
    await edb.start();
    embedded = edb;
    adminUrl = edb.adminUrl();
  }
  const reuse = env.BENCH_REUSE_DB && env.DATABASE_URL ? env.BENCH_REUSE_DB.replace(/[^a-z0-9_]/g, '') : undefined;
  // Fixed with a reused database, like ENCRYPTION_KEY: its sessions and the limits' tokens must still verify.
  const sessionSecret = reuse ? `bench-session-secret-${reuse}-0123456789abcdef` : SESSION_SECRET;
  const dbName = reuse ?? `cgs_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount! > 0;
  if (!exists) await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  // 2. The service, as a child process (migrations and the default tenant at start).
  const port = await freePort();
  const extra = Object.fromEntries(
    (env.BENCH_SERVICE_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]),
  );
  log('starting the service (node dist/src/main.js)...');
  const t0 = Date.now();
  // BENCH_SERVICE_FLAGS: Node/V8 flags for the service (e.g. `--trace-deopt`; NODE_OPTIONS refuses most V8 flags).
  const nodeArgs = [
    ...(PROFILE ? ['--import', './scripts/bench-cpu-prof.mjs'] : []),
    ...(env.BENCH_SERVICE_FLAGS ?? '').split(/\s+/).filter(Boolean),
  ];
  const serviceEnv = {
    CPU_PROF_DIR: 'bench/results/.prof',
    DATABASE_URL: dbUrl.toString(),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SWAGGER_ENABLED: 'false',
    WEB_CONCURRENCY: String(WORKERS),
    SESSION_SECRET: sessionSecret,
    ENCRYPTION_KEY,
    // The bench logs in thousands of times a second from one address: the login rate limits would refuse it.
    LOGIN_RATE_LIMIT_IP: '1000000000',
    LOGIN_RATE_LIMIT_ACCOUNT: '1000000000',
    LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: '1000000000',
    // Likewise each bench player claims quests thousands of times a minute.
    QUEST_CLAIMS_PER_MINUTE: '100000',
    ...extra,
  };
  const service = startChild(process.execPath, [...nodeArgs, ...START_FLAGS, 'dist/src/main.js'], {
    ...serviceEnv,
    PORT: String(port),
  });
  let redisService: Child | undefined;
  const base = `http://127.0.0.1:${port}`;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  let c: Ctx | undefined;
  try {
    await waitFor200(`${base}/health/ready`, service, 120_000);
    log(`  service ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await db.connect();
    const sizes = JSON.stringify({ LARGE, EVENTS, QUESTS, needs: [...needs].sort() });
    const kept = reuse ? await keptSeed(db) : undefined;
    if (reuse && kept && kept.sizes !== sizes)
      throw new Error(`BENCH_REUSE_DB ${reuse} was seeded for ${kept.sizes}, not ${sizes}: drop it first`);
    let tenant: Tenant;
    let communityId: string;
    if (kept) {
      ({ tenant, communityId } = kept);
      log(`  reusing the seeded database ${reuse}`);
    } else {
      const out = service.output();
      const grab = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(out)?.[1];
      tenant = { id: grab('tenant id')!, apiKey: grab('API key')!, sharedSecret: grab('shared secret')! };
      if (!tenant.id || !tenant.apiKey || !tenant.sharedSecret)
        throw new Error(`could not read the default tenant's credentials from the service output:\n${out.slice(-2000)}`);
      const community = await db.query(
        `INSERT INTO communities (tenant_id, slug, name, description, links) VALUES ($1, 'bench', 'Bench', 'The bench community', '[{"label":"site","url":"https://example.com"}]') RETURNING id`,
        [tenant.id],
      );
      communityId = (community.rows[0] as { id: string }).id;
    }
    const key = Buffer.from(sessionSecret, 'utf8');
    const rows = new Map<string, Row>();
    c = {
      base,
      db,
      dbUrl: dbUrl.toString(),
      tenant,
      communityId,
      ids: kept?.ids ?? {},
      rows,
      service,
      variant: '',
      sessionSecret,
      encryptionKey: ENCRYPTION_KEY,
      bare: () => {
        const b = rows.get('baseline-nest');
        if (!b) throw new Error('baseline-nest has not run');
        return b;
      },
      token: (userId) =>
        new SignJWT({ tid: tenant.id })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(userId)
          .setIssuer('community-gaming-service')
          .setAudience('cgs:session')
          .setIssuedAt()
          .setExpirationTime('2h')
          .sign(key),
    };

    // 3. Data.
    if (!kept) await seed(c, needs);
    if (reuse && !kept) {
      await db.query('CREATE TABLE bench_meta (meta jsonb NOT NULL)');
      await db.query('INSERT INTO bench_meta VALUES ($1)', [{ sizes, tenant, communityId, ids: c.ids }]);
    }

    // 4. Scenarios.
    // The same database served by a second service with REDIS_URL, for the rank scenarios
    // (started after the seed; it runs no migrations or start-up tasks of its own).
    let redisBase: string | undefined;
    if (REDIS && chosen.some((s) => s.ranks)) {
      const redisPort = await freePort();
      log(`starting the service with REDIS_URL=${REDIS_URL}...`);
      redisService = startChild(process.execPath, [...nodeArgs, ...START_FLAGS, 'dist/src/main.js'], {
        ...serviceEnv,
        PORT: String(redisPort),
        REDIS_URL,
        MIGRATIONS_RUN: 'false',
        STARTUP_TASKS: 'false',
      });
      redisBase = `http://127.0.0.1:${redisPort}`;
      await waitFor200(`${redisBase}/health/ready`, redisService, 120_000);
    }

    for (const s of chosen) {
      log(`[${s.name}] (${((Date.now() - started) / 1000).toFixed(0)} s into the run)`);
      const r = await s.run(c);
      rows.set(s.name, r);
      if (redisBase && redisService && s.ranks) {
        log(`[${s.name} (redis)]`);
        // The pass above went through the service without Redis: what it wrote (live-event) is
        // not in the sorted sets, which a deployment whose every instance has REDIS_URL would
        // not see. Those boards are dropped and rebuilt; the others only need to be built.
        await redisBoardsReady(redisBase, c, s.name.startsWith('live-event'));
        const rr = await s.run({ ...c, base: redisBase, service: redisService, variant: ' (redis)' });
        rows.set(`${s.name} (redis)`, { ...rr, scenario: `${rr.scenario} (redis)` });
      }
    }
    const serviceRss = treeRssMb(service.proc.pid!, 'dist/src/main.js');

    // 5. Report.
    const all = [...rows.values()];
    const md = table(all);
    log(`\n${md}\n`);
    for (const r of all) if (r.note) log(`- ${r.scenario}: ${r.note}`);
    log(`- service RSS after the run: ${serviceRss.toFixed(0)} MB (${WORKERS > 1 ? `primary and ${WORKERS} workers` : 'one process'})`);
    const minutes = (Date.now() - started) / 60_000;
    log(`whole run: ${minutes.toFixed(1)} min`);
    const at = new Date().toISOString().replace(/[:.]/g, '-');
    const meta = {
      at: new Date().toISOString(),
      workers: WORKERS,
      bareWorkers: WORKERS,
      pgBaselineClients: PG_CLIENTS,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      warmupSeconds: WARMUP,
      large: LARGE,
      events: EVENTS,
      quests: QUESTS,
      node: process.version,
      minutes,
      serviceRssMb: serviceRss,
      database: env.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
    };
    mkdirSync('bench/results', { recursive: true });
    const json = JSON.stringify({ ...meta, rows: all }, null, 2);
    const markdown = `# Bench ${meta.at}\n\n${CONNECTIONS} connections, ${DURATION} s per scenario, Node ${process.version}, ${meta.database} PostgreSQL, service WEB_CONCURRENCY=${WORKERS}, bare route ${WORKERS} worker process${WORKERS === 1 ? '' : 'es'}, raw-pg baseline ${PG_CLIENTS} clients (the service's total pool).\n\n${md}\n\n${all
      .filter((r) => r.note)
      .map((r) => `- ${r.scenario}: ${r.note}`)
      .join('\n')}\n`;
    const bareRps = rows.get('baseline-nest')?.rps ?? NaN;
    const svg = renderChart(
      all
        .filter((r) => r.scenario !== 'baseline-pg' && r.scenario !== 'cold-start')
        .map((r) => ({ scenario: r.scenario, rps: r.rps, ratio: r.ratio, goalRatio: goalRatioOf(r.goal, bareRps), met: r.met })),
      `npm run bench, ${meta.at.slice(0, 16).replace('T', ' ')} UTC: ${WORKERS} worker(s) each side, Node ${process.version}`,
    );
    for (const name of [at, 'latest']) {
      writeFileSync(`bench/results/${name}.json`, json);
      writeFileSync(`bench/results/${name}.md`, markdown);
      writeFileSync(`bench/results/${name}.svg`, svg);
    }
    // BENCH_DOCS=1: the chart that docs/performance.md shows is this run's.
    if (env.BENCH_DOCS === '1') writeFileSync('docs/bench-latest.svg', svg);
    log(`results: bench/results/${at}.{json,md,svg}${env.BENCH_DOCS === '1' ? ' and docs/bench-latest.svg' : ''}`);
  } finally {
    await db.end().catch(() => undefined);
    await service.stop();
    await redisService?.stop();
    if (!reuse) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await embedded?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
