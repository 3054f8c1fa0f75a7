import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultTenantFromOutput, freePort, sqlPool, startApp, type AppInstance, type HttpResult } from '../helpers/processes.js';
import {
  asUser,
  countBy,
  givenCommunity,
  givenItem,
  givenListing,
  givenResourceType,
  grant,
  LONG,
  purchase,
  register,
  report,
  scale,
  storeInvariants,
  unique,
  type User,
} from '../reliability/support.js';

interface Topology {
  up(dir: string): Promise<{ url: string; ports: Record<string, number>; primary: string }>;
  down(dir: string, o?: { clean?: boolean }): Promise<void>;
  killNode(name: string, dir: string): void;
  restartNode(name: string, dir: string): Promise<void>;
  nodeStates(dir: string): Promise<{ name: string; port: number; reported: string; assigned: string }[]>;
  primaryNode(dir: string): Promise<string | null>;
}

/** Load before the kill and after the service writes again. */
const SETTLE_MS = scale(1_500, 10_000);
const LOOPS = 32;

type Sample = { at: number; path: string; status: number; ms: number; body: unknown; retryAfter: string | null; error?: string };

/**
 * The loss of the primary's machine (`npm run test:topology`): pg_auto_failover's monitor, a
 * primary and a synchronous standby on loopback (scripts/topology.mjs), two instances of the service
 * given both hosts in one URL. Under logins, grants, purchases and reads the primary's keeper and
 * PostgreSQL are killed with SIGKILL; the monitor promotes the standby; the instances find it by
 * themselves (src/database/primary-locator.ts). Then the old primary rejoins as the standby.
 */
describe('failover: the primary PostgreSQL killed under load, the standby promoted by pg_auto_failover', () => {
  let dir: string;
  let topology: Topology;
  let url: string;
  let ports: Record<string, number>;
  let apps: AppInstance[] = [];

  beforeAll(async () => {
    topology = (await import(pathToFileURL(resolve('scripts/topology.mjs')).href)) as Topology;
    dir = mkdtempSync(join(tmpdir(), 'cgs-topology-'));
    // Three consecutive free ports for the monitor and the two nodes.
    process.env.TOPOLOGY_PORT = String(await consecutiveFreePorts(3));
    ({ url, ports } = await topology.up(dir));
    apps = [await startApp({ databaseUrl: url, name: 'app1', env: { READ_CACHE_MS: '0' } })];
    apps.push(await startApp({ databaseUrl: url, name: 'app2', env: { READ_CACHE_MS: '0' } }));
  }, 240_000);
  afterAll(async () => {
    for (const a of apps)
      // eslint-disable-next-line no-console -- a dead instance's last output is what explains the failure
      if (a.exitCode() !== null || !a.pid()) console.log(`${a.name} exited (${a.exitCode()}):\n${a.output().slice(-3000)}`);
    await Promise.all(apps.map((a) => a.kill()));
    await topology?.down(dir, { clean: true });
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 while there is no primary, never 500, writes again within 15 s, loses no acknowledged write; the old primary rejoins as standby', async () => {
    const tenant = defaultTenantFromOutput(apps[0].output());
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
    for (let i = 0; i < 8; i++) users.push(await register(apps[i % 2], tenant, unique('fo_')));
    for (const u of users) expect((await grant(apps[0], tenant, u.userId, xp.id, 100_000)).status).toBe(201);

    const samples: Sample[] = [];
    let stop = false;
    const t0 = performance.now();
    const requests = [
      (app: AppInstance, u: User) =>
        [
          'POST login',
          app.call('POST', '/v1/user/auth/password/login', {
            headers: { 'X-Tenant-Id': tenant.id },
            body: { username: u.username, password: u.password },
            timeoutMs: 10_000,
          }),
        ] as const,
      (app: AppInstance, u: User) => ['POST grant', grant(app, tenant, u.userId, xp.id, 1)] as const,
      (app: AppInstance, u: User) => ['POST purchase', purchase(app, u, listing.id, unique('n-'))] as const,
      (app: AppInstance, u: User) =>
        ['GET /v1/user/profile', app.call('GET', '/v1/user/profile?fields=username', { headers: asUser(u), timeoutMs: 10_000 })] as const,
      (app: AppInstance, u: User) =>
        [
          'GET ranking',
          app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}`, { headers: asUser(u), timeoutMs: 10_000 }),
        ] as const,
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
        if (r?.status === 503) await new Promise((res) => setTimeout(res, 20));
      }
    };
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, k) => loop(k)));

    const before = (await topology.primaryNode(dir))!;
    let killedAt = 0;
    let writesAgainAt = -1;
    let promotedAt = -1;
    try {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      killedAt = performance.now() - t0;
      topology.killNode(before, dir);
      // Writes again: a grant through each instance answered 201 after the kill.
      const deadline = performance.now() + 60_000;
      while (performance.now() < deadline && (writesAgainAt < 0 || promotedAt < 0)) {
        if (promotedAt < 0) {
          const states = await topology.nodeStates(dir).catch(() => []);
          if (states.some((n) => n.name !== before && n.reported === n.assigned && ['primary', 'wait_primary'].includes(n.reported)))
            promotedAt = performance.now() - t0;
        }
        if (writesAgainAt < 0) {
          const after = samples.filter((s) => s.path === 'POST grant' && s.at > killedAt + 100 && s.status === 201);
          if (after.length >= 2) writesAgainAt = Math.min(...after.map((s) => s.at + s.ms));
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    } finally {
      stop = true;
      await loops;
    }
    expect(writesAgainAt).toBeGreaterThan(0);
    const unavailableMs = writesAgainAt - killedAt;
    expect(unavailableMs).toBeLessThan(15_000);

    // Never a 500 or a hang; between the kill and the writes coming back, only what a request
    // gives with the database up or a 503 with Retry-After.
    expect(
      samples.filter((s) => (s.status >= 500 && s.status !== 503) || s.error).map((s) => `${s.path} ${s.status} ${s.error ?? ''}`),
    ).toEqual([]);
    const unavailable = samples.filter((s) => s.status === 503);
    for (const s of unavailable) {
      expect(s.retryAfter).toBe('1');
      expect(s.body).toEqual(expect.objectContaining({ message: expect.stringMatching(/^(service_unavailable|database_timeout)$/) }));
    }
    expect(apps.map((a) => a.exitCode())).toEqual([null, null]);

    // Every acknowledged write is on the new primary, once; the books balance.
    const newPrimary = (await topology.primaryNode(dir)) ?? (await topology.nodeStates(dir)).find((n) => n.name !== before)!.name;
    expect(newPrimary).not.toBe(before);
    const sql = sqlPool(`postgres://postgres@127.0.0.1:${ports[newPrimary]}/cgs`);
    try {
      const { rows: grants } = await sql.query<{ id: string }>('SELECT id FROM resource_ledger WHERE id = ANY($1::uuid[])', [
        acknowledged.grants,
      ]);
      expect(grants.length).toBe(new Set(acknowledged.grants).size);
      const { rows: bought } = await sql.query<{ id: string }>('SELECT id FROM store_purchases WHERE id = ANY($1::uuid[])', [
        acknowledged.purchases,
      ]);
      expect(bought.length).toBe(new Set(acknowledged.purchases).size);
      const invariants = await storeInvariants(sql);
      expect(invariants).toEqual(Object.fromEntries(Object.keys(invariants).map((k) => [k, 0])));
    } finally {
      await sql.end();
    }

    // The old primary's machine comes back: it rejoins as the standby of the new one.
    const rejoinFrom = performance.now();
    await topology.restartNode(before, dir);
    let rejoinedMs = -1;
    while (performance.now() - rejoinFrom < 120_000) {
      const states = await topology.nodeStates(dir);
      const old = states.find((n) => n.name === before)!;
      const current = states.find((n) => n.name === newPrimary)!;
      if (old.reported === 'secondary' && old.assigned === 'secondary' && current.reported === 'primary') {
        rejoinedMs = performance.now() - rejoinFrom;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rejoinedMs).toBeGreaterThan(0);
    // Both instances still write, to the new primary.
    for (const a of apps) expect((await grant(a, tenant, users[0].userId, xp.id, 1)).status).toBe(201);

    report('11. primary PostgreSQL lost (pg_auto_failover)', {
      requestLoops: LOOPS,
      requests: samples.length,
      statuses: countBy(samples, (s) => `${s.path} ${s.status}`),
      msFromKillToPromotion: Math.round(promotedAt - killedAt),
      msFromKillToWritesAgain: Math.round(unavailableMs),
      answered503: unavailable.length,
      acknowledgedGrants: acknowledged.grants.length,
      acknowledgedPurchases: acknowledged.purchases.length,
      acknowledgedWritesLost: 0,
      msToRejoinAsStandby: Math.round(rejoinedMs),
      long: LONG,
    });
  }, 600_000);
});

/** The first of `n` consecutive loopback ports that are free now. */
async function consecutiveFreePorts(n: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort();
    if (first + n > 65_535) continue;
    const ok = await Promise.all(Array.from({ length: n - 1 }, (_, i) => portFree(first + i + 1)));
    if (ok.every(Boolean)) return first;
  }
  throw new Error(`no ${n} consecutive free ports`);
}

async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
  });
}
