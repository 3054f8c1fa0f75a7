import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '../../src/database/embedded-postgres.js';
import { defaultTenantFromOutput, freePort, startApp, type AppInstance, type HttpResult } from '../helpers/processes.js';
import pg from 'pg';
import { asUser, countBy, givenCommunity, givenResourceType, grant, register, report, scale, type User } from './support.js';

const OUTAGES = scale(1, 4);
const OUTAGE_MS = scale(2_000, 5_000);

type Sample = { at: number; path: string; status: number; ms: number; body: unknown; error?: string };

/**
 * Part 4: a PostgreSQL server of its own (embedded), really stopped and started again under load.
 * During the outage every request fails fast with 503 {code, message} and /health/ready says so;
 * within 5 s of the database being back the same processes (no restart) serve again.
 */
describe(`database outage: PostgreSQL stopped under load (${OUTAGES} outages)`, () => {
  let dir: string;
  let db: EmbeddedDatabase;
  let apps: AppInstance[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cgs-outage-pg-'));
    chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
    db = new EmbeddedDatabase({ dataDir: join(dir, 'data'), port: await freePort(), database: 'cgs_outage', persistent: true });
    await db.start();
    apps = [await startApp({ databaseUrl: db.url, name: 'app1' })];
    apps.push(await startApp({ databaseUrl: db.url, name: 'app2' }));
  }, 180_000);
  afterAll(async () => {
    if (process.env.RELIABILITY_APP_LOG) for (const a of apps) console.log(a.name, a.output().split('\n').filter((l) => l.includes('unhandled')).join('\n').slice(0, 8000)); // eslint-disable-line no-console
    await Promise.all(apps.map((a) => a.kill()));
    await db?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 {code, message} fast while the database is down and recovers within 5 s without a restart', async () => {
    const tenant = defaultTenantFromOutput(apps[0].output());
    const pids = apps.map((a) => a.pid());
    const community = await givenCommunity(apps[0], tenant);
    const xp = await givenResourceType(apps[0], tenant, community.id);
    const users: User[] = [];
    for (let i = 0; i < 4; i++) users.push(await register(apps[i % 2], tenant));

    const samples: Sample[] = [];
    let stop = false;
    const t0 = performance.now();
    const requests = [
      (app: AppInstance, i: number) => ['GET /v1/user/profile', app.call('GET', '/v1/user/profile?fields=username', { headers: asUser(users[i % users.length]), timeoutMs: 10_000 })] as const,
      (app: AppInstance) => ['GET /v1/community', app.call('GET', `/v1/community/${community.id}`, { headers: { 'X-Tenant-Id': tenant.id }, timeoutMs: 10_000 })] as const,
      (app: AppInstance, i: number) => ['POST grant', grant(app, tenant, users[i % users.length].userId, xp.id, 1)] as const,
      (app: AppInstance) => ['GET /health/ready', app.call('GET', '/health/ready', { timeoutMs: 10_000 })] as const,
    ];
    const acknowledgedGrants: string[] = [];
    const loop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        const app = apps[(i + k) % apps.length];
        const [path, pending] = requests[(i + k) % requests.length](app, i);
        const at = performance.now() - t0;
        let r: HttpResult | undefined;
        let error: string | undefined;
        try { r = await pending; } catch (e) { error = (e as Error).name; }
        samples.push({ at, path, status: r?.status ?? 0, ms: r?.ms ?? performance.now() - t0 - at, body: r?.body, error });
        if (path === 'POST grant' && r?.status === 201) acknowledgedGrants.push(r.body.entryId);
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    const loops = Promise.all(Array.from({ length: 8 }, (_, k) => loop(k)));

    const outages: { downAt: number; startAt: number; upAt: number; firstOkAfterUpMs: number; readyAfterUpMs: number }[] = [];
    for (let o = 0; o < OUTAGES; o++) {
      await new Promise((r) => setTimeout(r, 800));
      await db.stop();
      const downAt = performance.now() - t0;
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      const startAt = performance.now() - t0;
      await db.start();
      const upAt = performance.now() - t0;
      // the first request that succeeds again on every instance (polling the readiness probe too)
      let readyAfter = -1;
      for (let i = 0; i < 100; i++) {
        const ready = await Promise.all(apps.map((a) => a.call('GET', '/health/ready', { timeoutMs: 5000 }).catch(() => undefined)));
        const reads = await Promise.all(apps.map((a) => a.call('GET', `/v1/community/${community.id}`, { headers: { 'X-Tenant-Id': tenant.id }, timeoutMs: 5000 }).catch(() => undefined)));
        if ([...ready, ...reads].every((r) => r?.status === 200)) {
          readyAfter = performance.now() - t0 - upAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 500));
      const firstOk = samples.filter((s) => s.at >= upAt && s.status >= 200 && s.status < 300 && s.path !== 'GET /health/ready').map((s) => s.at + s.ms - upAt);
      outages.push({ downAt: Math.round(downAt), startAt, upAt: Math.round(upAt), firstOkAfterUpMs: Math.round(Math.min(...firstOk)), readyAfterUpMs: Math.round(readyAfter) });
    }
    stop = true;
    await loops;

    // During each outage (from 300 ms after the stop until the start is begun): only 503 {code, message}, fast.
    const during = samples.filter((s) => outages.some((o) => s.at >= o.downAt + 300 && s.at + s.ms <= o.startAt));
    expect(during.length).toBeGreaterThan(20);
    expect(countBy(during, (s) => s.status)).toEqual({ 503: during.length });
    for (const s of during) expect(s.body).toEqual(expect.objectContaining({ code: expect.any(Number), message: expect.any(String) }));
    const readyDuring = during.filter((s) => s.path === 'GET /health/ready');
    expect(readyDuring.length).toBeGreaterThan(0);
    const slowest = Math.max(...during.map((s) => s.ms));
    expect(slowest).toBeLessThan(3_000);
    // Recovery within 5 s of the database coming back, same processes.
    for (const o of outages) expect(o.readyAfterUpMs).toBeGreaterThanOrEqual(0);
    for (const o of outages) expect(o.readyAfterUpMs).toBeLessThan(5_000);
    expect(apps.map((a) => a.pid())).toEqual(pids);
    // Never a 500, never a hang; every acknowledged grant is in the ledger.
    expect(samples.filter((s) => s.status >= 500 && s.status !== 503 || s.error).map((s) => `${s.path} ${s.status} ${s.error ?? ''}`)).toEqual([]);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>('SELECT id FROM resource_ledger WHERE id = ANY($1::uuid[])', [acknowledgedGrants]);
    await client.end();
    expect(rows.length).toBe(acknowledgedGrants.length);

    report('4. database outage', {
      outages: OUTAGES,
      outageMs: OUTAGE_MS,
      requests: samples.length,
      requestsDuringOutage: during.length,
      statusesDuringOutage: countBy(during, (s) => s.status),
      slowestAnswerDuringOutageMs: Math.round(slowest),
      medianAnswerDuringOutageMs: Math.round(during.map((s) => s.ms).sort((a, b) => a - b)[Math.floor(during.length / 2)]),
      recoveries: outages.map((o) => `${o.readyAfterUpMs} ms (first 2xx of the load ${o.firstOkAfterUpMs} ms)`),
      acknowledgedGrants: acknowledgedGrants.length,
      restartsOfTheApp: 0,
    });
  }, 300_000);
});
