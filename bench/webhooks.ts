/**
 * `npm run bench:webhooks`: webhook delivery throughput (docs/performance.md, Webhooks).
 *
 * A fresh database on DATABASE_URL's server (required), the service as a child process, a local
 * receiver on 127.0.0.1 and one subscription to `resource.credited`. Two phases:
 *
 * 1. live: BENCH_WEBHOOK_LIVE (2,000) grants through the management API at BENCH_CONNECTIONS (32)
 *    in flight, each committing one event: commit-to-receipt latency (receipt time minus the
 *    event's `occurredAt`, taken in the committing transaction) while events keep coming;
 * 2. burst: BENCH_WEBHOOK_EVENTS (10,000) events committed at once (one transaction, the outbox's
 *    own statement shape: events and their deliveries), then drained: delivered events per
 *    second from the commit to the last receipt, and commit-to-receipt p50/p99/max.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { startChild, waitFor200 } from './lib/processes.js';
import { freePort, log, percentile } from './lib/util.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const LIVE = Number(process.env.BENCH_WEBHOOK_LIVE ?? 2_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required (a PostgreSQL server; a throw-away database is made on it)');
  const dbName = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${dbName}`;

  // The receiver: records when each event id first arrives.
  const firstReceipt = new Map<string, number>();
  const occurred = new Map<string, number>();
  let requests = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      requests++;
      const e = JSON.parse(Buffer.concat(chunks).toString()) as { id: string; occurredAt: string };
      if (!firstReceipt.has(e.id)) {
        firstReceipt.set(e.id, now);
        occurred.set(e.id, Date.parse(e.occurredAt));
      }
      res.writeHead(200).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const port = await freePort();
  const service = startChild(process.execPath, ['--enable-source-maps', 'dist/src/main.js'], {
    DATABASE_URL: dbUrl.toString(),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SWAGGER_ENABLED: 'false',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${base}/health/ready`, service, 120_000);
    const out = service.output();
    const grab = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(out)?.[1];
    const tenantId = grab('tenant id')!;
    const apiKey = grab('API key')!;
    const call = async (method: string, path: string, body: unknown) => {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
      });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, string>>;
    };
    const community = await call('POST', '/v1/admin/communities', { slug: 'bench', name: 'Bench' });
    const type = await call('POST', '/v1/admin/resources/types', { communityId: community.id, slug: 'xp', name: 'XP', kind: 'global' });
    const db = new pg.Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const users = await db.query<{ id: string }>(
      `INSERT INTO users (tenant_id, handle, handle_normalized) SELECT $1, 'b_' || g, 'b_' || g FROM generate_series(1, 1000) g RETURNING id`,
      [tenantId],
    );
    await call('POST', '/v1/admin/webhooks/subscriptions', { url: hook, eventTypes: ['resource.credited'] });
    log(
      `webhooks bench: live ${LIVE.toLocaleString('en')} grants (${CONNECTIONS} in flight), then a burst of ${EVENTS.toLocaleString('en')} events`,
    );
    const stats = (ids: string[], from: (id: string) => number) => {
      const lat = ids.map((id) => firstReceipt.get(id)! - from(id)).sort((a, b) => a - b);
      return { p50: percentile(lat, 50), p99: percentile(lat, 99), max: lat.at(-1) };
    };
    const waitAll = async (count: number) => {
      const t = Date.now();
      while (firstReceipt.size < count && Date.now() - t < 300_000) await new Promise((r) => setTimeout(r, 10));
    };

    // 1. live
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < LIVE) {
          const i = next++;
          await call('POST', '/v1/admin/resources/grants', {
            userId: users.rows[i % users.rows.length].id,
            resourceTypeId: type.id,
            amount: 1,
            reason: 'bench',
            idempotencyKey: `g-${i}`,
          });
        }
      }),
    );
    const liveWritten = Date.now();
    await waitAll(LIVE);
    const liveIds = [...firstReceipt.keys()];
    const live = {
      events: LIVE,
      writesPerSecond: Math.round(LIVE / ((liveWritten - t0) / 1000)),
      commitToReceiptMs: stats(liveIds, (id) => occurred.get(id)!),
    };

    // 2. burst: committed at once, then drained by the worker(s).
    await db.query('BEGIN');
    await db.query(
      `WITH e AS (
         INSERT INTO outbox_events (id, tenant_id, type, version, occurred_at, payload)
         SELECT gen_random_uuid(), $1, 'resource.credited', 1, clock_timestamp(),
           jsonb_build_object('userId', $2::text, 'resourceTypeId', $3::text, 'kind', 'global', 'amount', 1, 'reason', 'bench', 'reference', null, 'balance', g)
         FROM generate_series(1, $4::int) g RETURNING id, tenant_id, occurred_at)
       INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT e.tenant_id, s.id, e.id, 'pending', 0, e.occurred_at, e.occurred_at, e.occurred_at FROM e JOIN webhook_subscriptions s ON s.tenant_id = e.tenant_id`,
      [tenantId, users.rows[0].id, type.id, EVENTS],
    );
    await db.query('COMMIT');
    const committed = Date.now();
    await waitAll(LIVE + EVENTS);
    const burstIds = [...firstReceipt.keys()].filter((id) => !liveIds.includes(id));
    const lastReceipt = Math.max(...burstIds.map((id) => firstReceipt.get(id)!));
    const pending = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    await db.end();
    const result = {
      live,
      burst: {
        events: EVENTS,
        receivedUnique: burstIds.length,
        deliveredPerSecond: Math.round(burstIds.length / ((lastReceipt - committed) / 1000)),
        commitToReceiptMs: stats(burstIds, () => committed),
      },
      requests,
      deliveries: Object.fromEntries(pending.rows.map((r) => [r.status, r.n])),
    };
    // eslint-disable-next-line no-console
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await service.stop();
    receiver.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e: unknown) => {
  // eslint-disable-next-line no-console
  console.error(e);
  process.exit(1);
});
