import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '../../src/database/embedded-postgres.js';
import { defaultTenantFromOutput, freePort, sqlPool, startApp, type AppInstance, type HttpResult } from '../helpers/processes.js';
import {
  asUser,
  countBy,
  LONG,
  givenCommunity,
  givenItem,
  givenListing,
  givenResourceType,
  grant,
  purchase,
  register,
  report,
  scale,
  storeInvariants,
  unique,
  type User,
} from './support.js';

/**
 * Alternating `pg_ctl -m fast stop` and `-m immediate stop`: several rounds of each in the long run,
 * one of each in the short run (`npm test`).
 */
const MODES: ('fast' | 'immediate')[] = LONG ? ['fast', 'immediate', 'fast', 'immediate', 'fast', 'immediate'] : ['fast', 'immediate'];
/** Load before each stop, and after the last restart. */
const SETTLE_MS = scale(500, 1_000);
const OUTAGE_MS = scale(1_500, 10_000);
/**
 * Request loops: more than the two pools' 20 connections, so requests queue for a connection when
 * the server stops: the crash needed a connection handed to a waiting query, and with 32 loops it
 * rarely showed.
 */
const LOOPS = 48;

type Sample = { at: number; path: string; status: number; ms: number; body: unknown; retryAfter: string | null; error?: string };

/**
 * Part 4: a PostgreSQL server of its own (embedded), really stopped (fast and immediate shutdown)
 * and started again under concurrent load on two instances, several times. Nothing exits: the same
 * processes answer 503 {code, message} with Retry-After while the database is down and serve again
 * within 5 s of it being back. The load goes through every way the service reaches the pool:
 * TypeORM query runners (reads, transactions: grants and purchases), the prepared statements
 * (`findOneFast` community reads, the personal ranking) and the readiness probe.
 */
describe(`database outage: PostgreSQL stopped under load (${MODES.join(', ')})`, () => {
  let dir: string;
  let db: EmbeddedDatabase;
  let apps: AppInstance[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cgs-outage-pg-'));
    chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
    db = new EmbeddedDatabase({ dataDir: join(dir, 'data'), port: await freePort(), database: 'cgs_outage', persistent: true });
    await db.start();
    // READ_CACHE_MS=0: every community and ranking read reaches the database.
    apps = [await startApp({ databaseUrl: db.url, name: 'app1', env: { READ_CACHE_MS: '0' } })];
    apps.push(await startApp({ databaseUrl: db.url, name: 'app2', env: { READ_CACHE_MS: '0' } }));
  }, 180_000);
  afterAll(async () => {
    for (const a of apps)
      // eslint-disable-next-line no-console -- a dead instance's last output is what explains the failure
      if (a.exitCode() !== null || !a.pid()) console.log(`${a.name} exited (${a.exitCode()}):\n${a.output().slice(-3000)}`);
    await Promise.all(apps.map((a) => a.kill()));
    await db?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the same processes through fast and immediate shutdowns: 503 while down, serving again within 5 s', async () => {
    const tenant = defaultTenantFromOutput(apps[0].output());
    const pids = apps.map((a) => a.pid());
    const community = await givenCommunity(apps[0], tenant);
    const xp = await givenResourceType(apps[0], tenant, community.id);
    const item = await givenItem(apps[0], tenant, community.id);
    const listing = await givenListing(apps[0], tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: xp.id, amount: 1 }],
    });
    const users: User[] = [];
    for (let i = 0; i < 8; i++) users.push(await register(apps[i % 2], tenant));
    for (const u of users) expect((await grant(apps[0], tenant, u.userId, xp.id, 100_000)).status).toBe(201);

    const samples: Sample[] = [];
    let stop = false;
    const t0 = performance.now();
    const publicRead = { headers: { 'X-Tenant-Id': tenant.id }, timeoutMs: 10_000 };
    const requests = [
      (app: AppInstance, u: User) =>
        ['GET /v1/user/profile', app.call('GET', '/v1/user/profile?fields=username', { headers: asUser(u), timeoutMs: 10_000 })] as const,
      (app: AppInstance) => ['GET /v1/community', app.call('GET', `/v1/community/${community.id}`, publicRead)] as const,
      (app: AppInstance, u: User) =>
        [
          'GET ranking',
          app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}`, { headers: asUser(u), timeoutMs: 10_000 }),
        ] as const,
      (app: AppInstance, u: User) => ['POST grant', grant(app, tenant, u.userId, xp.id, 1)] as const,
      (app: AppInstance, u: User) => ['POST purchase', purchase(app, u, listing.id, unique('n-'))] as const,
      (app: AppInstance) => ['GET /health/ready', app.call('GET', '/health/ready', { timeoutMs: 10_000 })] as const,
    ];
    const acknowledged = { grants: [] as string[], purchases: [] as string[] };
    const loop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        const app = apps[(i + k) % apps.length];
        const [path, pending] = requests[(i + k) % requests.length](app, users[(i + k) % users.length]);
        const at = performance.now() - t0;
        let r: HttpResult | undefined;
        let error: string | undefined;
        try {
          r = await pending;
        } catch (e) {
          error = (e as Error).name;
        }
        samples.push({
          at,
          path,
          status: r?.status ?? 0,
          ms: r?.ms ?? performance.now() - t0 - at,
          body: r?.body,
          retryAfter: r?.headers.get('retry-after') ?? null,
          error,
        });
        if (path === 'POST grant' && r?.status === 201) acknowledged.grants.push(r.body.entryId);
        if (path === 'POST purchase' && r?.status === 201) acknowledged.purchases.push(r.body.id);
        // While the database is down answers come at once: pace the loop a little.
        if (r?.status === 503) await new Promise((res) => setTimeout(res, 20));
      }
    };
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, k) => loop(k)));

    const alive = () =>
      apps.map((a) => {
        try {
          return process.kill(a.pid()!, 0);
        } catch {
          return false;
        }
      });
    const outages: { mode: string; downAt: number; startAt: number; upAt: number; readyAfterUpMs: number }[] = [];
    try {
      for (const mode of MODES) {
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        await db.stop(mode);
        const downAt = performance.now() - t0;
        await new Promise((r) => setTimeout(r, OUTAGE_MS));
        // Before the restart: a process that died on the stop is reported with its last words.
        for (const [i, a] of apps.entries())
          if (!alive()[i]) throw new Error(`${a.name} exited after the ${mode} stop:\n${a.output().slice(-3000)}`);
        const startAt = performance.now() - t0;
        await db.start();
        const upAt = performance.now() - t0;
        // Every instance answers its readiness probe and a read again.
        let readyAfter = -1;
        for (let i = 0; i < 100; i++) {
          const ready = await Promise.all(apps.map((a) => a.call('GET', '/health/ready', { timeoutMs: 5000 }).catch(() => undefined)));
          const reads = await Promise.all(
            apps.map((a) => a.call('GET', `/v1/community/${community.id}`, { ...publicRead, timeoutMs: 5000 }).catch(() => undefined)),
          );
          if ([...ready, ...reads].every((r) => r?.status === 200)) {
            readyAfter = performance.now() - t0 - upAt;
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        outages.push({ mode, downAt, startAt, upAt, readyAfterUpMs: Math.round(readyAfter) });
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    } finally {
      stop = true;
      await loops;
    }

    // Same processes, none exited.
    expect(alive()).toEqual(apps.map(() => true));
    expect(apps.map((a) => a.pid())).toEqual(pids);
    expect(apps.map((a) => a.exitCode())).toEqual(apps.map(() => null));

    // While the database is down (from 300 ms after the stop until the start is begun): only 503
    // {code, message} with Retry-After, fast.
    const during = samples.filter((s) => outages.some((o) => s.at >= o.downAt + 300 && s.at + s.ms <= o.startAt));
    expect(during.length).toBeGreaterThan(20 * MODES.length);
    expect(countBy(during, (s) => s.status)).toEqual({ 503: during.length });
    for (const s of during) {
      expect(s.body).toEqual(
        expect.objectContaining({ code: 10503, error: 'service_unavailable', message: 'service_unavailable', detail: expect.any(String) }),
      );
      expect(s.retryAfter).toBe('1');
    }
    expect(new Set(during.map((s) => s.path)).size).toBe(requests.length);
    const slowest = Math.max(...during.map((s) => s.ms));
    expect(slowest).toBeLessThan(3_000);
    // Serving again within 5 s of the database, after every stop.
    for (const o of outages) expect(o.readyAfterUpMs).toBeGreaterThanOrEqual(0);
    for (const o of outages) expect(o.readyAfterUpMs).toBeLessThan(5_000);
    // Never a 500, never a hang; nothing acknowledged is lost; the store's books balance.
    expect(
      samples.filter((s) => (s.status >= 500 && s.status !== 503) || s.error).map((s) => `${s.path} ${s.status} ${s.error ?? ''}`),
    ).toEqual([]);
    const sql = sqlPool(db.url);
    try {
      const { rows: grants } = await sql.query<{ id: string }>('SELECT id FROM resource_ledger WHERE id = ANY($1::uuid[])', [
        acknowledged.grants,
      ]);
      expect(grants.length).toBe(acknowledged.grants.length);
      const { rows: bought } = await sql.query<{ id: string }>('SELECT id FROM store_purchases WHERE id = ANY($1::uuid[])', [
        acknowledged.purchases,
      ]);
      expect(bought.length).toBe(new Set(acknowledged.purchases).size);
      const invariants = await storeInvariants(sql);
      expect(invariants).toEqual(Object.fromEntries(Object.keys(invariants).map((k) => [k, 0])));
    } finally {
      await sql.end();
    }

    report('4. database outage', {
      stops: MODES.join(', '),
      outageMs: OUTAGE_MS,
      requestLoops: LOOPS,
      requests: samples.length,
      statuses: countBy(samples, (s) =>
        `${s.status} ${s.status >= 400 ? ((s.body as { error?: string } | undefined)?.error ?? '') : ''}`.trim(),
      ),
      requestsDuringOutage: during.length,
      statusesDuringOutage: countBy(during, (s) => s.status),
      slowestAnswerDuringOutageMs: Math.round(slowest),
      medianAnswerDuringOutageMs: Math.round(during.map((s) => s.ms).sort((a, b) => a - b)[Math.floor(during.length / 2)]),
      readyAgainAfterTheDatabaseMs: outages.map((o) => `${o.mode} ${o.readyAfterUpMs}`),
      acknowledgedGrants: acknowledged.grants.length,
      acknowledgedPurchases: acknowledged.purchases.length,
      processExits: 0,
    });
  }, 600_000);
});
