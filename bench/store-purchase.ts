/**
 * Store purchase benchmark: purchases per second on ONE hot listing.
 *
 *   npm run build && node dist/bench/store-purchase.js
 *
 * (bench/run.ts, behind `npm run bench`, has no way to register other scenarios, so this one runs
 * on its own.) Like run.ts it creates a fresh database (on DATABASE_URL's server, or a throw-away
 * embedded PostgreSQL), starts the service in this process, seeds users with bulk SQL, and drives
 * POST /v1/store/purchase/{listingId} with autocannon: every request a new nonce, users spread over
 * BENCH_USERS, the listing selling an inventory item (debit + item grant + notification + supply).
 * A second run replays one nonce per user (the idempotent path), a third reads the balance (a
 * baseline: an authenticated request with two small queries). Afterwards it checks the
 * invariants: purchases = sold, one debit per purchase, Σ ledger = balances.
 * Environment: BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 20), BENCH_USERS (default 2000).
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
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 20);
const USERS = Number(env.BENCH_USERS ?? 2000);
const PRICE = 10;

const log = (s: string) => process.stdout.write(`${s}\n`);

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
  const dbName = `cgs_bench_store_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

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
    const tenant = await app.get(TenantsService).create({ slug: 'bench' });
    const call = async (path: string, body: object) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const community = await call('/v1/admin/communities', { slug: 'bench', name: 'Bench' });
    const gems = await call('/v1/admin/resources/types', { communityId: community.id, slug: 'gems', name: 'Gems', kind: 'global' });
    const slot = await call('/v1/admin/inventory/slots', { communityId: community.id, key: 'hand', name: 'Hand' });
    const item = await call('/v1/admin/inventory/items', { communityId: community.id, slotId: slot.id, name: 'Sword' });
    const listing = await call('/v1/admin/store/listings', {
      communityId: community.id, name: 'Sword', kind: 'item', itemId: item.id, price: [{ resourceTypeId: gems.id, amount: PRICE }], totalSupply: 100_000_000,
    });

    // Users with plenty to spend: one balance row and one matching ledger row each (Σ ledger = balance).
    await db.query(`INSERT INTO users (tenant_id, handle, handle_normalized) SELECT $1, 'buyer_' || g, 'buyer_' || g FROM generate_series(1, $2::int) g`, [tenant.id, USERS]);
    await db.query(
      `CREATE TEMP TABLE seed AS SELECT id AS user_id, 1000000000::bigint AS amount FROM users WHERE tenant_id = $1`,
      [tenant.id],
    );
    await db.query(`INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at) SELECT $1, user_id, $2, amount, amount, now(), now() FROM seed`, [gems.id, tenant.id]);
    await db.query(`INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, created_at) SELECT $2, $1, user_id, amount, amount, 'bench_seed', now() FROM seed`, [gems.id, tenant.id]);
    await db.query(
      `INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
       SELECT $1, l, amount >> (4 * l), COUNT(*) FROM seed, generate_series(0, 13) AS l WHERE (amount >> (4 * l)) > 0 GROUP BY 2, 3`,
      [gems.id],
    );
    await db.query('VACUUM ANALYZE');
    const userIds: string[] = (await db.query('SELECT user_id FROM seed')).rows.map((r: { user_id: string }) => r.user_id);
    const sessions = app.get(SessionTokenService);
    const tokens = await Promise.all(userIds.map((id) => sessions.sessionToken(id, tenant.id)));
    log(`seeded ${USERS} buyers; listing ${listing.id}`);

    const path = `/v1/store/purchase/${listing.id}`;
    let i = 0;
    const fresh: AutocannonRequest = {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => {
        const k = i++ % tokens.length;
        return { ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[k]}` }, body: JSON.stringify({ nonce: randomUUID() }) };
      },
    };
    let j = 0;
    const replay: AutocannonRequest = {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => {
        // 50 nonces in turn: after the first 50 requests every request is a replay.
        const k = j++ % 50;
        return { ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[k]}` }, body: JSON.stringify({ nonce: `replay-${k}` }) };
      },
    };

    const rows: string[][] = [];
    const run = async (label: string, request: AutocannonRequest, duration: number) => {
      const res = await autocannon({ url: base, connections: CONNECTIONS, duration, requests: [request] });
      rows.push([label, res.requests.average.toFixed(0), String(res.latency.p50), String(res.latency.p99), String(res.non2xx + res.errors)]);
      log(`  ${label}: ${res.requests.average.toFixed(0)} req/s, p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms, non-2xx/errors ${res.non2xx + res.errors}`);
    };
    log(`warming up...`);
    await run('warm-up', fresh, 2);
    rows.length = 0;
    log(`benchmarking one hot listing (${DURATION} s, ${CONNECTIONS} connections, ${USERS} buyers)...`);
    await run('purchase (new nonce)', fresh, DURATION);
    await run('purchase (replayed nonce)', replay, DURATION);
    let b = 0;
    await run('balance read (baseline)', {
      method: 'GET',
      path: `/v1/store/balance?containerId=bench`,
      setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer ${tokens[b++ % tokens.length]}` } }),
    }, DURATION);

    // Invariants after the run.
    const [{ sold }] = (await db.query('SELECT sold FROM store_listings WHERE id = $1', [listing.id])).rows;
    const [{ n }] = (await db.query('SELECT COUNT(*)::int AS n FROM store_purchases WHERE listing_id = $1', [listing.id])).rows;
    const [{ d }] = (await db.query(`SELECT COUNT(*)::int AS d FROM resource_ledger WHERE reason = 'store_purchase'`)).rows;
    const [{ bad }] = (
      await db.query(
        `SELECT COUNT(*)::int AS bad FROM resource_balances b JOIN (SELECT user_id, SUM(delta) AS s FROM resource_ledger WHERE resource_type_id = $1 GROUP BY user_id) l
         ON l.user_id = b.user_id WHERE b.resource_type_id = $1 AND b.balance <> l.s`,
        [gems.id],
      )
    ).rows;
    log(`\npurchases ${n}, listing sold ${sold}, debits ${d}, balances differing from the ledger ${bad}`);
    if (Number(sold) !== Number(n) || Number(d) !== Number(n) || Number(bad) !== 0) throw new Error('invariant broken');

    log('\n| scenario | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
    for (const r of rows) log(`| ${r[0]} | ${r[1]} | ${r[2]} | ${r[3]} | ${r[4]} |`);
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
