import { execFileSync } from 'node:child_process';
import { createTestDatabase } from '../setup/test-database.js';
import { defaultTenantFromOutput, sqlPool, startApp, type AppInstance } from '../helpers/processes.js';
import { asUser, expectOk, givenCommunity, register, report } from './support.js';

/** The worker processes of a cluster primary. */
const workersOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there is none
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * WEB_CONCURRENCY=2: a primary that serves nothing and two workers on one port. Start-up tasks run
 * once, a worker that dies is replaced while the other serves, SIGTERM stops everything cleanly.
 */
describe('cluster mode (WEB_CONCURRENCY=2)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: AppInstance;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    // An empty database: the first worker runs the migrations, once, before the others start.
    db = await createTestDatabase({ empty: true });
    app = await startApp({ databaseUrl: db.url, name: 'cluster', env: { WEB_CONCURRENCY: '2' } });
    await until('both workers to listen', () => app.output().includes('2 workers are serving'));
  }, 120_000);
  afterAll(async () => {
    report('cluster mode', figures);
    await app?.kill();
    await db?.drop();
  });

  it('runs the start-up tasks once: one default tenant, its credentials printed once', async () => {
    const tenant = defaultTenantFromOutput(app.output());
    expect(app.output().match(/Created the default tenant/g)).toHaveLength(1);
    expect(app.output()).toContain('2 workers are serving');
    const sql = sqlPool(db.url);
    try {
      expect((await sql.query('SELECT COUNT(*)::int AS n FROM tenants')).rows[0].n).toBe(1);
    } finally {
      await sql.end();
    }
    // both workers serve the same data: a session made by one is accepted by whichever answers
    const user = await register(app, tenant);
    const community = await givenCommunity(app, tenant);
    for (let i = 0; i < 20; i++)
      expectOk(await app.call('GET', `/v1/community/${community.id}`, { headers: asUser(user) }), 200, 'community');
  });

  it('replaces a worker killed with SIGKILL while the other keeps serving', async () => {
    const primary = app.pid()!;
    const [victim, other] = workersOf(primary);
    process.kill(victim, 'SIGKILL');
    let served = 0;
    let cut = 0; // a connection the primary had just handed to the victim dies with it (reset, or silent until the timeout)
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const r = await app.call('GET', '/health/ready', { timeoutMs: 2000 }).catch(() => undefined);
      if (r?.status === 200) served++;
      else cut++;
      if (app.output().includes('starting it again') && served >= 5) break;
      await sleep(50);
    }
    await until('the replacement to listen', () => workersOf(primary).length === 2);
    await sleep(1000);
    for (let i = 0; i < 20; i++) expect((await app.call('GET', '/health/ready')).status).toBe(200);
    const after = workersOf(primary);
    expect(after).toHaveLength(2);
    expect(after).toContain(other);
    expect(after).not.toContain(victim);
    expect(app.output()).toMatch(/worker [01] exited \(signal SIGKILL\); starting it again/);
    expect(cut).toBeLessThanOrEqual(2);
    figures.servedWhileReplacing = served;
    figures.cutConnections = cut;
  });

  it('stops the primary and every worker on SIGTERM, exit code 0', async () => {
    const primary = app.pid()!;
    const workers = workersOf(primary);
    await app.stop();
    expect(alive(primary)).toBe(false);
    expect(app.exitCode()).toBe(0);
    await until('the workers to exit', () => workers.every((w) => !alive(w)), 10_000);
  });
});
