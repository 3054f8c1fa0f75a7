/**
 * `npm run bench`: ranking benchmark. Seeds its own data with bulk SQL (generate_series) in a
 * fresh database (on DATABASE_URL's server, or on a throw-away embedded PostgreSQL), starts the
 * service in this process, and measures with autocannon:
 *   - GET /v1/community/{id}/ranking/{slug} (the caller's rank + neighbours) at 10k and 1M ranked users,
 *   - GET /v1/community/{id}/leaderboard/{slug} (first page) at both sizes,
 *   - POST /v1/admin/resources/grants (ledger credit + rank counters) on the 1M leaderboard,
 * and, for the record, one rank lookup by the prefix counters vs a plain COUNT(*) at 1M.
 * Environment: BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 20), BENCH_LARGE (default 1000000).
 */
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 20);
const LARGE = Number(env.BENCH_LARGE ?? 1_000_000);
const SMALL = 10_000;
const SAMPLE = 500;

const log = (s: string) => process.stdout.write(`${s}\n`);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function main(): Promise<void> {
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
    const db = new EmbeddedDatabase({ dataDir: join(tmp, 'data'), port: await freePort(), database: 'postgres', persistent: false });
    log('starting embedded PostgreSQL...');
    await db.start();
    embedded = db;
    adminUrl = db.adminUrl();
  }
  const dbName = `cgs_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  // 2. The service, in this process (migrations run at start).
  Object.assign(env, { DATABASE_URL: dbUrl.toString(), LOG_LEVEL: 'warn', NODE_ENV: 'development', SWAGGER_ENABLED: 'false', DB_POOL_SIZE: '20' });
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('../src/app.module.js');
  const { setupApp } = await import('../src/app.setup.js');
  const { TenantsService } = await import('../src/tenants/tenants.service.js');
  const { SessionTokenService } = await import('../src/auth/session-token.service.js');
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  setupApp(app, { swagger: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as net.AddressInfo).port}`;

  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  try {
    // 3. Seed with bulk inserts.
    const tenant = await app.get(TenantsService).create({ slug: 'bench' });
    const t0 = process.hrtime.bigint();
    const [{ id: communityId }] = (await db.query(`INSERT INTO communities (tenant_id, slug, name) VALUES ($1, 'bench', 'Bench') RETURNING id`, [tenant.id])).rows;
    const types: Record<string, { id: string; size: number }> = {};
    for (const [slug, size] of [['xp-10k', SMALL], ['xp-large', LARGE]] as const) {
      const r = await db.query(`INSERT INTO resource_types (tenant_id, community_id, slug, name, kind) VALUES ($1, $2, $3, $3, 'global') RETURNING id`, [tenant.id, communityId, slug]);
      types[slug] = { id: r.rows[0].id, size };
    }
    await db.query(
      `INSERT INTO users (tenant_id, handle, handle_normalized) SELECT $1, 'bench_' || g, 'bench_' || g FROM generate_series(1, $2::int) g`,
      [tenant.id, LARGE],
    );
    log(`seeded ${LARGE} users in ${(ms(t0) / 1000).toFixed(1)} s`);
    for (const { id, size } of Object.values(types)) {
      const t1 = process.hrtime.bigint();
      // Skewed scores (many ties at the bottom), one seed ledger row per balance so Σ ledger = balance.
      await db.query(
        `CREATE TEMP TABLE seed AS SELECT id AS user_id, (1 + floor(power(random(), 3) * 1000000))::bigint AS score,
           now() - random() * interval '30 days' AS at FROM users WHERE tenant_id = $1 ORDER BY handle LIMIT $2`,
        [tenant.id, size],
      );
      await db.query(`INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at) SELECT $1, user_id, $2, score, score, at, at FROM seed`, [id, tenant.id]);
      await db.query(`INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, created_at) SELECT $2, $1, user_id, score, score, 'bench_seed', at FROM seed`, [id, tenant.id]);
      await db.query(
        `INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
         SELECT $1, l, score >> (4 * l), COUNT(*) FROM seed, generate_series(0, 13) AS l WHERE (score >> (4 * l)) > 0 GROUP BY 2, 3`,
        [id],
      );
      await db.query('DROP TABLE seed');
      log(`seeded ${size} balances, ledger rows and rank counters in ${(ms(t1) / 1000).toFixed(1)} s`);
    }
    // Settle the freshly loaded tables now, so autovacuum does not run during the first measurement.
    await db.query('VACUUM ANALYZE');

    // 4. Session tokens of a sample of ranked users.
    const sessions = app.get(SessionTokenService);
    const tokensFor = async (typeId: string) => {
      const r = await db.query('SELECT user_id FROM resource_balances WHERE resource_type_id = $1 ORDER BY random() LIMIT $2', [typeId, SAMPLE]);
      return Promise.all(r.rows.map((row: { user_id: string }) => sessions.sessionToken(row.user_id, tenant.id)));
    };

    const rows: string[][] = [];
    const run = async (label: string, requests: AutocannonRequest[]) => {
      const res = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests });
      rows.push([label, res.requests.average.toFixed(0), String(res.latency.p50), String(res.latency.p99), String(res.non2xx + res.errors)]);
      log(`  ${label}: ${res.requests.average.toFixed(0)} req/s, p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms, non-2xx/errors ${res.non2xx + res.errors}`);
    };
    for (const [slug, { id, size }] of Object.entries(types)) {
      const tokens = await tokensFor(id);
      // Warm-up (JIT of the Node process, caches), not recorded.
      await autocannon({ url: base, connections: CONNECTIONS, duration: 2, requests: tokens.map((tok) => ({ method: 'GET', path: `/v1/community/${communityId}/ranking/${slug}`, headers: { authorization: `Bearer ${tok}` } })) });
      log(`benchmarking ${size} ranked users (${DURATION} s, ${CONNECTIONS} connections)...`);
      await run(`ranking     ${size}`, tokens.map((tok) => ({ method: 'GET', path: `/v1/community/${communityId}/ranking/${slug}`, headers: { authorization: `Bearer ${tok}` } })));
      await run(`leaderboard ${size}`, [{ method: 'GET', path: `/v1/community/bench/leaderboard/${slug}?limit=20`, headers: { 'x-tenant-id': tenant.id } }]);
    }
    const large = types['xp-large'];
    const sample = (await db.query('SELECT user_id FROM resource_balances WHERE resource_type_id = $1 ORDER BY random() LIMIT $2', [large.id, SAMPLE])).rows.map((r: { user_id: string }) => r.user_id);
    let i = 0;
    await run(`grant       ${large.size}`, [{
      method: 'POST',
      path: '/v1/admin/resources/grants',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ userId: sample[i++ % sample.length], resourceTypeId: large.id, amount: 1 + (i % 50), reason: 'bench', idempotencyKey: randomUUID() }) }),
    }]);

    // 5. One rank lookup at the median score: prefix counters vs counting rows.
    const { RankingService } = await import('../src/resources/ranking.service.js');
    const ranking = app.get(RankingService);
    const [{ s }] = (await db.query('SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY earned) AS s FROM resource_balances WHERE resource_type_id = $1', [large.id])).rows;
    const median = Number(s);
    const time = async (fn: () => Promise<unknown>) => {
      await fn();
      const t2 = process.hrtime.bigint();
      for (let k = 0; k < 20; k++) await fn();
      return ms(t2) / 20;
    };
    const ds = (ranking as unknown as { dataSource: import('typeorm').DataSource }).dataSource;
    const viaCounters = await time(() => ranking.countAbove(ds.manager, large.id, [median]));
    const viaCount = await time(() => db.query('SELECT COUNT(*) FROM resource_balances WHERE resource_type_id = $1 AND earned > $2', [large.id, median]));
    const [{ above }] = (await db.query('SELECT COUNT(*)::int AS above FROM resource_balances WHERE resource_type_id = $1 AND earned > $2', [large.id, median])).rows;
    const counted = (await ranking.countAbove(ds.manager, large.id, [median])).get(median);
    log(`rank of the median score at ${large.size}: prefix counters ${viaCounters.toFixed(2)} ms, COUNT(*) ${viaCount.toFixed(2)} ms (both say ${counted} / ${above} above)`);

    log('\n| endpoint | ranked users | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|---|');
    for (const r of rows) {
      const [name, size] = r[0].split(/\s+/);
      log(`| ${name} | ${size} | ${r[1]} | ${r[2]} | ${r[3]} | ${r[4]} |`);
    }
  } finally {
    await db.end();
    await app.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
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
