import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { METRICS_TOKEN, Scrape } from '../helpers/metrics.js';
import { defaultTenantFromOutput, freePort, httpCall, sqlPool, startApp, type AppInstance, type HttpResult } from '../helpers/processes.js';
import {
  asAdmin,
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
  up(dir: string): Promise<{ url: string; replicaUrl: string; ports: Record<string, number>; primary: string }>;
  down(dir: string, o?: { clean?: boolean }): Promise<void>;
  killNode(name: string, dir: string): void;
  restartNode(name: string, dir: string): Promise<void>;
  stopReplica(dir: string, how?: 'fast' | 'kill'): Promise<void>;
  startReplica(dir: string): Promise<void>;
  startBalancer(dir: string, backends: number[]): Promise<string>;
  nodeStates(dir: string): Promise<{ name: string; port: number; reported: string; assigned: string }[]>;
  primaryNode(dir: string): Promise<string | null>;
}

/** Load before the kill and after the service writes again. */
const SETTLE_MS = scale(1_500, 10_000);
const LOOPS = 32;

type Sample = { at: number; path: string; status: number; ms: number; body: unknown; retryAfter: string | null; error?: string };

/**
 * The high-availability layout on loopback (`npm run test:topology`, scripts/topology.mjs):
 * pg_auto_failover's monitor, a primary and a synchronous standby, a streaming replica, and three
 * instances of the service behind HAProxy, given both nodes in one URL and the replica. Reads that
 * tolerate lag go to the replica while it is fresh and to the primary while it is stopped. Under
 * logins, grants, purchases, quest claims and reads the primary's keeper and PostgreSQL are killed with SIGKILL;
 * the monitor promotes the standby; the instances find it by themselves
 * (src/database/primary-locator.ts). Then the old primary rejoins as the standby.
 */
describe('failover: the primary PostgreSQL killed under load, the standby promoted by pg_auto_failover', () => {
  let dir: string;
  let topology: Topology;
  let url: string;
  let replicaUrl: string;
  let ports: Record<string, number>;
  let apps: AppInstance[] = [];
  /** HAProxy in front of the instances, as a client sees the service. */
  let lb: AppInstance;
  const scrape = async (app: AppInstance) => {
    const r = await app.call('GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    return new Scrape(r.body as string);
  };

  beforeAll(async () => {
    topology = (await import(pathToFileURL(resolve('scripts/topology.mjs')).href)) as Topology;
    dir = mkdtempSync(join(tmpdir(), 'cgs-topology-'));
    // Five consecutive free ports: the monitor, the two nodes, the replica, the balancer.
    process.env.TOPOLOGY_PORT = String(await consecutiveFreePorts(5));
    ({ url, replicaUrl, ports } = await topology.up(dir));
    const env = { DATABASE_REPLICA_URLS: replicaUrl, METRICS_TOKEN, QUEST_CLAIMS_PER_MINUTE: '100000' };
    apps = [await startApp({ databaseUrl: url, name: 'app1', env })];
    apps.push(...(await Promise.all([2, 3].map((n) => startApp({ databaseUrl: url, name: `app${n}`, env })))));
    const balancer = await topology.startBalancer(
      dir,
      apps.map((a) => a.port),
    );
    lb = { ...apps[0], name: 'haproxy', url: balancer, call: (method, path, opts) => httpCall(balancer, method, path, opts) };
  }, 240_000);
  afterAll(async () => {
    for (const a of apps)
      // eslint-disable-next-line no-console -- a dead instance's last output is what explains the failure
      if (a.exitCode() !== null || !a.pid()) console.log(`${a.name} exited (${a.exitCode()}):\n${a.output().slice(-3000)}`);
    await Promise.all(apps.map((a) => a.kill()));
    await topology?.down(dir, { clean: true });
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reads move to the replica, fall back to the primary while it is stopped, and come back; a refill after a write shows it', async () => {
    const tenant = defaultTenantFromOutput(apps[0].output());
    const community = await givenCommunity(apps[0], tenant);
    const xp = await givenResourceType(apps[0], tenant, community.id);
    const users: User[] = [];
    for (let i = 0; i < 4; i++) users.push(await register(apps[i % 2], tenant, unique('rr_')));
    // Reads each instance ran on the replica, passed to the primary after a replica failure, and ran on the primary.
    const replicaReads = async () => {
      const scrapes = await Promise.all(apps.map(scrape));
      const sum = (labels: Record<string, string>) => scrapes.reduce((n, m) => n + m.value('db_replica_reads_total', labels), 0);
      // The lag each instance sees (-1 while the replica does not answer).
      for (const m of scrapes) {
        const lag = m.value('db_replica_lag_seconds');
        if (lag >= 0) lagsMs.push(lag * 1000);
      }
      return {
        onReplica: sum({ result: 'served' }) - sum({ replica: 'primary' }),
        fallbacks: sum({ result: 'fallback' }),
        onPrimary: sum({ replica: 'primary' }),
      };
    };
    /** Until `check` holds of the counts, or SETTLE_MS × 4: the counts then. */
    const readsUntil = async (check: (c: Awaited<ReturnType<typeof replicaReads>>) => boolean) => {
      const deadline = performance.now() + SETTLE_MS * 4;
      for (;;) {
        const c = await replicaReads();
        if (check(c) || performance.now() > deadline) return c;
        await new Promise((res) => setTimeout(res, 100));
      }
    };

    const samples: Sample[] = [];
    const created: string[] = [];
    const stale: string[] = [];
    let stop = false;
    const t0 = performance.now();
    const listQuests = (app: AppInstance, u: User) =>
      app.call('GET', `/v1/community/${community.id}/quests?tags=&questTypes=&featured=&query=&page=1&limit=100`, {
        headers: asUser(u),
        timeoutMs: 10_000,
      });
    const reads = [
      (app: AppInstance, u: User) => ['GET quests', listQuests(app, u)] as const,
      (app: AppInstance, u: User) =>
        [
          'GET listings',
          app.call('GET', `/v1/store/listings?containerId=${community.id}&enrichRequirements=true&page=1&limit=20`, {
            headers: asUser(u),
            timeoutMs: 10_000,
          }),
        ] as const,
      (app: AppInstance, u: User) =>
        [
          'GET public profile',
          app.call('GET', `/v1/user/by-id/${u.userId}/public?containerId=${community.id}`, {
            headers: { 'X-Tenant-Id': tenant.id },
            timeoutMs: 10_000,
          }),
        ] as const,
      (app: AppInstance, u: User) =>
        ['GET quest events', app.call('GET', '/v1/quest-event', { headers: asUser(u), timeoutMs: 10_000 })] as const,
    ];
    const loop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        const [path, pending] = reads[(i + k) % reads.length](apps[(i + k) % apps.length], users[(i + k) % users.length]);
        samples.push((await timed(path, pending, t0)).sample);
      }
    };
    // Writes that drop the quest lists, each read back at once through the same instance: the
    // refill comes from a replica only once it has replayed the write.
    const writer = async () => {
      for (let i = 0; !stop; i++) {
        const app = apps[i % apps.length];
        const name = unique('Quest ');
        const q = await app.call('POST', '/v1/admin/quests', {
          headers: asAdmin(tenant),
          body: { communityId: community.id, name, type: 'match', rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 1 }] },
          timeoutMs: 10_000,
        });
        if (q.status !== 201) {
          samples.push({ at: performance.now() - t0, path: 'POST quest', status: q.status, ms: q.ms, body: q.body, retryAfter: null });
          continue;
        }
        created.push(q.body.id);
        // Filtered by its name: past 100 quests a new one need not be on the first page.
        const list = await app.call(
          'GET',
          `/v1/community/${community.id}/quests?tags=&questTypes=&featured=&query=${encodeURIComponent(name)}&page=1&limit=100`,
          { headers: asUser(users[i % users.length]), timeoutMs: 10_000 },
        );
        if (list.status === 200 && !(list.body.items as { id: string }[]).some((x) => x.id === q.body.id)) stale.push(q.body.id);
      }
    };
    const running = Promise.all([...Array.from({ length: 12 }, (_, k) => loop(k)), writer()]);
    const phases: Record<string, number> = {};
    const lagsMs: number[] = [];
    try {
      const c0 = await replicaReads();
      await new Promise((res) => setTimeout(res, SETTLE_MS));
      const c1 = await readsUntil((c) => c.onReplica > c0.onReplica);
      phases.readsOnReplicaBeforeStop = c1.onReplica - c0.onReplica;
      phases.readsOnPrimaryBeforeStop = c1.onPrimary - c0.onPrimary;
      const stoppedAt = performance.now() - t0;
      await topology.stopReplica(dir, 'fast');
      const c2 = await replicaReads();
      await new Promise((res) => setTimeout(res, SETTLE_MS));
      const c3 = await replicaReads();
      const startedAt = performance.now() - t0;
      phases.readsOnReplicaWhileStopped = c3.onReplica - c2.onReplica;
      phases.fallbacksAtTheStop = c3.fallbacks - c0.fallbacks;
      phases.answersWhileStopped = samples.filter((x) => x.at > stoppedAt && x.at < startedAt).length;
      await topology.startReplica(dir);
      const c4 = await readsUntil((c) => c.onReplica > c3.onReplica);
      phases.msUntilReadsOnReplicaAgain = Math.round(performance.now() - t0 - startedAt);
      phases.readsOnReplicaAfterStart = c4.onReplica - c3.onReplica;
      await new Promise((res) => setTimeout(res, SETTLE_MS));
    } finally {
      stop = true;
      await running;
    }
    expect(samples.filter((x) => x.status !== 200 || x.error).map((x) => `${x.path} ${x.status} ${x.error ?? ''}`)).toEqual([]);
    expect(stale).toEqual([]);
    expect(created.length).toBeGreaterThan(0);
    expect(phases.readsOnReplicaBeforeStop).toBeGreaterThan(0);
    expect(phases.readsOnReplicaWhileStopped).toBe(0);
    expect(phases.answersWhileStopped).toBeGreaterThan(0);
    expect(phases.readsOnReplicaAfterStart).toBeGreaterThan(0);
    const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
    report('11b. read replica stopped and started under reads', {
      requests: samples.length,
      p50Ms: Math.round(ms[Math.floor(ms.length / 2)]),
      p99Ms: Math.round(ms[Math.floor(ms.length * 0.99)]),
      statuses: countBy(samples, (s) => `${s.path} ${s.status}`),
      questsCreatedAndReadBack: created.length,
      staleReadsAfterOwnWrite: stale.length,
      ...phases,
      replicaLagMsMedianAndMax: lagsMs.length
        ? [Math.round(lagsMs.sort((a, b) => a - b)[Math.floor(lagsMs.length / 2)]), Math.round(lagsMs[lagsMs.length - 1])]
        : null,
    });
  }, 300_000);

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
    // Quests a player completes by claiming (a balance of at least 1: every user has one), one
    // claim per player and quest in turn.
    const quests: string[] = [];
    for (let i = 0; i < 24; i++) {
      const q = await apps[0].call('POST', '/v1/admin/quests', {
        headers: asAdmin(tenant),
        body: {
          communityId: community.id,
          name: unique('Claim '),
          type: 'play',
          rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 3 }],
        },
      });
      expect(q.status).toBe(201);
      const task = await apps[0].call('POST', `/v1/admin/quests/${q.body.id}/tasks`, {
        headers: asAdmin(tenant),
        body: { title: 'Hold XP', kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'balance', atLeast: 1 } },
      });
      expect(task.status).toBe(201);
      quests.push(q.body.id as string);
    }
    const nextQuest = new Map<string, number>();

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
      (app: AppInstance, u: User) => {
        const n = nextQuest.get(u.userId) ?? 0;
        nextQuest.set(u.userId, n + 1);
        const questId = quests[n % quests.length];
        const pending = app.call('POST', `/v1/quests/${questId}/claim`, { headers: asUser(u), timeoutMs: 10_000 }).then((res) => {
          if (res.status === 200 && res.body?.completion?.created === true) acknowledged.claims.push(`${u.userId} ${questId}`);
          return res;
        });
        return ['POST claim', pending] as const;
      },
      (app: AppInstance, u: User) =>
        [
          'GET ranking',
          app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}`, { headers: asUser(u), timeoutMs: 10_000 }),
        ] as const,
    ];
    const acknowledged = { grants: [] as string[], purchases: [] as string[], claims: [] as string[] };
    const loop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        // Every request through the load balancer, as clients send them.
        const app = lb;
        const [path, pending] = requests[(i + k) % requests.length](app, users[(i + k) % users.length]);
        const { r, sample } = await timed(path, pending, t0);
        samples.push(sample);
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
    expect(apps.map((a) => a.exitCode())).toEqual(apps.map(() => null));

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
      // Each acknowledged claim completed its quest once, and no claim completed one twice.
      const { rows: completions } = await sql.query<{ k: string; n: number }>(
        "SELECT user_id || ' ' || quest_id AS k, count(*)::int AS n FROM quest_completions WHERE quest_id = ANY($1::uuid[]) GROUP BY 1",
        [quests],
      );
      const completed = new Map(completions.map((c) => [c.k, c.n]));
      expect(acknowledged.claims.filter((k) => completed.get(k) !== 1)).toEqual([]);
      expect(completions.filter((c) => c.n !== 1)).toEqual([]);
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
    // Every instance still writes, to the new primary.
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
      acknowledgedClaims: acknowledged.claims.length,
      acknowledgedWritesLost: 0,
      msToRejoinAsStandby: Math.round(rejoinedMs),
      long: LONG,
    });
  }, 600_000);
});

/** A request's answer as a sample: when it was sent (ms after `t0`), its status, time and Retry-After, or the error it failed with. */
async function timed(path: string, pending: Promise<HttpResult>, t0: number): Promise<{ r?: HttpResult; sample: Sample }> {
  const at = performance.now() - t0;
  try {
    const r = await pending;
    return {
      r,
      sample: { at, path, status: r.status, ms: r.ms, body: r.body, retryAfter: r.headers.get('retry-after'), error: undefined },
    };
  } catch (e) {
    return {
      sample: { at, path, status: 0, ms: performance.now() - t0 - at, body: undefined, retryAfter: null, error: (e as Error).name },
    };
  }
}

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
