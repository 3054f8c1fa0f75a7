import pg from 'pg';
import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster, type HttpResult } from '../helpers/processes.js';
import {
  asUser,
  countBy,
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

/** How long another session holds the hot listing's row: more than twice DB_LOCK_TIMEOUT_MS (3 s), a wait for a slot of the listing's bulkhead and then for the row. */
const HOLD_MS = scale(10_000, 20_000);
/** Buyers of the hot listing, each in its own loop: more than the two pools' 20 connections. */
const BUYERS = 24;
/** Loops of unrelated requests (reads, grants, joins) over both instances. */
const OTHER_LOOPS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Sample = {
  kind: 'purchase' | 'other' | 'ready';
  what: string;
  start: number;
  end: number;
  status: number;
  errorId?: string;
  error?: string;
  retryAfter: string | null;
};

/**
 * Part 4b, a slow database: one hot listing row held `FOR UPDATE` by another session (a stuck
 * transaction, a long migration) while its buyers and unrelated traffic hit two instances (pools of
 * 10). The buyers' lock waits end at DB_LOCK_TIMEOUT_MS with a retryable 503 `database_timeout`, so
 * they cannot take every pooled connection: unrelated requests keep answering 2xx and readiness
 * (its own connection) 200. After the release, the purchases retried with the same nonce are
 * bought once each, and the store's books balance.
 */
describe(`slow database: a hot listing row held FOR UPDATE for ${HOLD_MS / 1000} s under load on two instances`, () => {
  let c: Cluster;
  let holder: pg.Client | undefined;

  beforeAll(async () => {
    c = await startCluster(createTestDatabase, 2);
  }, 120_000);
  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await c?.close();
  });

  it('answers the blocked purchases 503 database_timeout before the row is released, everything else 2xx and readiness 200', async () => {
    const [a] = c.apps;
    const tenant = c.tenant;
    const community = await givenCommunity(a, tenant);
    const other = await givenCommunity(a, tenant);
    const gems = await givenResourceType(a, tenant, community.id);
    const item = await givenItem(a, tenant, community.id);
    const listing = await givenListing(a, tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 1 }],
    });
    const buyers: User[] = await Promise.all(Array.from({ length: BUYERS }, (_, i) => register(c.apps[i % 2], tenant)));
    for (const u of buyers) expect((await grant(a, tenant, u.userId, gems.id, 1_000)).status).toBe(201);
    // Users of the unrelated traffic (no row in common with the buyers' purchases).
    const others: User[] = await Promise.all(Array.from({ length: 8 }, (_, i) => register(c.apps[i % 2], tenant)));
    const joiners: User[] = await Promise.all(Array.from({ length: scale(60, 200) }, (_, i) => register(c.apps[i % 2], tenant)));

    const t0 = performance.now();
    const now = () => performance.now() - t0;
    const samples: Sample[] = [];
    const record = async (kind: Sample['kind'], what: string, pending: Promise<HttpResult>): Promise<HttpResult | undefined> => {
      const start = now();
      let r: HttpResult | undefined;
      let error: string | undefined;
      try {
        r = await pending;
      } catch (e) {
        error = (e as Error).message;
      }
      samples.push({
        kind,
        what,
        start,
        end: now(),
        status: r?.status ?? 0,
        errorId: (r?.status ?? 0) >= 400 ? r?.body?.error : undefined,
        error,
        retryAfter: r?.headers.get('retry-after') ?? null,
      });
      return r;
    };
    let stop = false;

    // Buyers: a purchase of the hot listing; on 503 the same nonce again after Retry-After, as a client should.
    const bought = new Map<string, number>(); // nonce -> purchases answered 201 (not replayed)
    const refusedThenBought = new Set<string>();
    const buyer = async (k: number) => {
      const app = c.apps[k % 2];
      let nonce = unique('n-');
      let refused = false;
      for (let attempt = 0; !stop || (refused && attempt < 30); attempt++) {
        const r = await record('purchase', 'POST purchase', purchase(app, buyers[k], listing.id, nonce));
        if (r?.status === 201) {
          if (!r.body.replayed) bought.set(nonce, (bought.get(nonce) ?? 0) + 1);
          if (refused) refusedThenBought.add(nonce);
          nonce = unique('n-');
          refused = false;
          attempt = 0;
          if (stop) break;
        } else if (r?.status === 503) {
          refused = true;
          await sleep(Number(r.headers.get('retry-after') ?? 1) * 1000);
        } else {
          await sleep(100);
        }
      }
    };
    // Unrelated traffic: public and session reads, grants to other users, joins of another community.
    let nextJoiner = 0;
    const requests: ((app: AppInstance, i: number) => [string, Promise<HttpResult>])[] = [
      (app) => ['GET community', app.call('GET', `/v1/community/${community.id}`, { headers: { 'X-Tenant-Id': tenant.id } })],
      (app, i) => ['GET profile', app.call('GET', '/v1/user/profile?fields=username', { headers: asUser(others[i % others.length]) })],
      (app, i) => [
        'GET ranking',
        app.call('GET', `/v1/community/${community.id}/ranking/${gems.slug}`, { headers: asUser(others[i % others.length]) }),
      ],
      (app, i) => ['POST grant', grant(app, tenant, others[i % others.length].userId, gems.id, 1)],
      (app) => [
        'POST join',
        app.call('POST', `/v1/community/${other.id}/join?referrerHandle=`, { headers: asUser(joiners[nextJoiner++ % joiners.length]) }),
      ],
      (app) => [
        'GET store listings',
        app.call('GET', `/v1/store/listings?containerId=${community.id}&enrichRequirements=true`, { headers: asUser(others[0]) }),
      ],
    ];
    const otherLoop = async (k: number) => {
      for (let i = 0; !stop; i++) {
        const [what, pending] = requests[(i + k) % requests.length](c.apps[(i + k) % 2], i);
        await record('other', what, pending);
        await sleep(20);
      }
    };
    const readiness = async (app: AppInstance) => {
      while (!stop) {
        await record('ready', 'GET /health/ready', app.call('GET', '/health/ready', { timeoutMs: 10_000 }));
        await sleep(250);
      }
    };
    const loops = [...Array.from({ length: OTHER_LOOPS }, (_, k) => otherLoop(k)), ...c.apps.map((app) => readiness(app))];

    let lockedAt = 0;
    let releasedAt = 0;
    const waitingOnLocks: number[] = [];
    try {
      await sleep(scale(500, 1_500)); // the unrelated traffic is flowing
      // The row is taken while no purchase is in flight: a FOR UPDATE queued behind purchases'
      // foreign-key share locks deadlocks with the next purchase's UPDATE (PostgreSQL aborts one).
      holder = new pg.Client({ connectionString: c.databaseUrl });
      holder.on('error', () => undefined);
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM store_listings WHERE id = $1 FOR UPDATE', [listing.id]);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      lockedAt = now();
      loops.push(...buyers.map((_, k) => buyer(k)));
      // How many sessions wait on the held row meanwhile: those the holder blocks, directly or
      // behind another waiter (the buyers' transactions in PostgreSQL). Not every lock wait: the
      // unrelated joins queue on their own community's row, which is no business of the bulkhead.
      for (const until = performance.now() + HOLD_MS; performance.now() < until; await sleep(250)) {
        const {
          rows: [w],
        } = await c.sql.query<{ n: number }>(
          `WITH RECURSIVE blocked(pid) AS (
             SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND $1::int = ANY (pg_blocking_pids(pid))
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY (pg_blocking_pids(a.pid)) WHERE a.datname = current_database())
           SELECT count(*)::int AS n FROM blocked`,
          [holderPid],
        );
        waitingOnLocks.push(w.n);
      }
      await holder.query('COMMIT');
      releasedAt = now();
      // Traffic after the release; the refused buyers go on (with their nonces) until they bought.
      await sleep(scale(500, 2_000));
    } finally {
      stop = true;
      await Promise.all(loops);
    }

    // While the row was held (requests sent after the lock, answered before the release):
    const held = samples.filter((s) => s.start >= lockedAt && s.end <= releasedAt);
    const heldPurchases = held.filter((s) => s.kind === 'purchase');
    const heldOthers = held.filter((s) => s.kind === 'other');
    const heldReady = held.filter((s) => s.kind === 'ready');
    const ms = (xs: Sample[]) => {
      const d = xs.map((s) => s.end - s.start).sort((x, y) => x - y);
      return d.length ? `median ${Math.round(d[Math.floor(d.length / 2)])} ms, slowest ${Math.round(d[d.length - 1])} ms` : '-';
    };
    report('4b. slow database (hot row held)', {
      holdMs: Math.round(releasedAt - lockedAt),
      buyers: BUYERS,
      purchasesWhileHeld: `${heldPurchases.length} ${JSON.stringify(countBy(heldPurchases, (s) => `${s.status} ${s.errorId ?? ''}`.trim()))} (${ms(heldPurchases)})`,
      unrelatedWhileHeld: `${heldOthers.length} ${JSON.stringify(countBy(heldOthers, (s) => `${s.status} ${s.errorId ?? ''}`.trim()))} (${ms(heldOthers)})`,
      sessionsWaitingOnLocksMax: `${Math.max(...waitingOnLocks)} (pools: 2 x 10 connections)`,
      readinessWhileHeld: `${heldReady.length} ${JSON.stringify(countBy(heldReady, (s) => s.status))} (${ms(heldReady)})`,
      refusedNoncesRetriedAndBoughtOnce: refusedThenBought.size,
      purchasesBought: bought.size,
      statusesOverall: countBy(samples, (s) => `${s.kind} ${s.status}`),
      notOk: countBy(
        samples.filter((s) => s.status >= 300 || s.status === 0),
        (s) => `${s.what} ${s.status} ${s.errorId ?? ''}`,
      ),
    });
    // ...every buyer's first purchase was answered before the release, and every purchase answered
    // then was a retryable 503 database_timeout;
    const firstOfEachBuyer = samples
      .filter((s) => s.kind === 'purchase' && s.start >= lockedAt)
      .sort((x, y) => x.start - y.start)
      .slice(0, BUYERS);
    expect(firstOfEachBuyer.filter((s) => s.end > releasedAt)).toEqual([]);
    expect(heldPurchases.length).toBeGreaterThanOrEqual(BUYERS);
    expect(countBy(heldPurchases, (s) => `${s.status} ${s.errorId}`)).toEqual({ '503 database_timeout': heldPurchases.length });
    expect(heldPurchases.every((s) => s.retryAfter === '1')).toBe(true);
    // ...at most half of each instance's pool waited on the row (the listing's bulkhead);
    expect(Math.max(...waitingOnLocks)).toBeLessThanOrEqual(2 * 5);
    // ...unrelated requests answered 2xx and readiness 200, on both instances.
    expect(heldOthers.length).toBeGreaterThan(20);
    expect(heldOthers.filter((s) => s.status < 200 || s.status > 299).map((s) => `${s.what} ${s.status} ${s.error ?? ''}`)).toEqual([]);
    expect(heldReady.length).toBeGreaterThanOrEqual(4);
    expect(countBy(heldReady, (s) => s.status)).toEqual({ 200: heldReady.length });
    // Never a 500 or a socket error; the only 503s are purchases of the held row.
    expect(
      samples
        .filter((s) => s.status === 0 || s.status >= 500)
        .filter((s) => !(s.kind === 'purchase' && s.status === 503))
        .map((s) => `${s.what} ${s.status} ${s.error ?? ''}`),
    ).toEqual([]);
    const purchase503 = samples.filter((s) => s.kind === 'purchase' && s.status === 503);
    expect(purchase503.every((s) => s.start >= lockedAt - 100 && s.start <= releasedAt)).toBe(true);

    // After the release every refused purchase, retried with its nonce, was bought exactly once.
    expect(refusedThenBought.size).toBeGreaterThanOrEqual(BUYERS);
    expect([...bought.values()].every((n) => n === 1)).toBe(true);
    const { rows } = await c.sql.query<{ nonce: string }>('SELECT nonce FROM store_purchases WHERE listing_id = $1', [listing.id]);
    expect(rows.map((r) => r.nonce).sort()).toEqual([...bought.keys()].sort());
    const invariants = await storeInvariants(c.sql);
    expect(invariants).toEqual(Object.fromEntries(Object.keys(invariants).map((k) => [k, 0])));
  }, 300_000);
});
