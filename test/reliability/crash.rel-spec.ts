import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster, type HttpResult } from '../helpers/processes.js';
import {
  countBy,
  givenCommunity,
  givenItem,
  givenListing,
  givenResourceType,
  grant,
  pool,
  purchase,
  register,
  report,
  scale,
  storeInvariants,
  unique,
  type User,
} from './support.js';

const CRASHES = scale(2, 6);
const LOAD_MS = scale(1_500, 4_000);

type Write = {
  kind: 'register' | 'grant' | 'purchase';
  key: string;
  instance: string;
  result?: HttpResult;
  error?: string;
  retried?: HttpResult;
};

/**
 * Part 3: kill -9 an instance in the middle of write load (registrations, grants, purchases),
 * restart it, and check that every write acknowledged with 2xx is there, none is half-applied,
 * and a retry of a write whose answer was lost (same idempotency key / nonce) applies it at most once.
 */
describe(`crash: kill -9 during write load (${CRASHES} crashes)`, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster(createTestDatabase, 2);
  }, 120_000);
  afterAll(() => c?.close());

  it('keeps every acknowledged write and never half-applies one', async () => {
    const [victim, survivor] = c.apps;
    const tenant = c.tenant;
    const community = await givenCommunity(survivor, tenant);
    const gems = await givenResourceType(survivor, tenant, community.id);
    const item = await givenItem(survivor, tenant, community.id, { supply: 100_000 });
    const listing = await givenListing(survivor, tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 3 }],
    });
    const buyers: User[] = await pool(4, 20, () => register(survivor, tenant));
    await pool(8, buyers.length, (i) => grant(survivor, tenant, buyers[i].userId, gems.id, 1_000_000));

    const writes: Write[] = [];
    const registered = new Map<string, { user?: User; username: string }>();
    let seq = 0;
    const send = async (app: AppInstance): Promise<void> => {
      const i = seq++;
      const kind = (['register', 'grant', 'purchase', 'purchase'] as const)[i % 4];
      const w: Write = { kind, key: unique(`${kind}-`), instance: app.name };
      writes.push(w);
      try {
        if (kind === 'register') {
          registered.set(w.key, { username: `crash_${w.key.replace(/-/g, '_')}` });
          w.result = await app.call('POST', '/v1/user/register/password', {
            headers: { 'X-Tenant-Id': tenant.id },
            body: { username: registered.get(w.key)!.username, password: 'crash-test-password' },
            timeoutMs: 20_000,
          });
        } else if (kind === 'grant') {
          w.result = await grant(app, tenant, buyers[i % buyers.length].userId, gems.id, 7, w.key);
        } else {
          w.result = await purchase(app, buyers[i % buyers.length], listing.id, w.key);
        }
      } catch (e) {
        w.error = (e as Error).name; // the connection died with the process: not acknowledged
      }
    };
    /** Keeps `width` writes in flight on the apps until `until()` is true. */
    const load = async (apps: AppInstance[], width: number, until: () => boolean) => {
      await Promise.all(
        Array.from({ length: width }, async (_, k) => {
          while (!until()) await send(apps[k % apps.length]);
        }),
      );
    };

    const restartsMs: number[] = [];
    for (let crash = 0; crash < CRASHES; crash++) {
      let victimDown = false;
      let restarted = false;
      // the victim takes writes until it dies; the survivor goes on until the victim is back
      const onVictim = load([victim], 12, () => victimDown);
      const onSurvivor = load([survivor], 12, () => restarted);
      await new Promise((r) => setTimeout(r, LOAD_MS));
      const killed = victim.kill('SIGKILL');
      victimDown = true;
      await killed;
      await onVictim;
      const t0 = performance.now();
      await victim.restart();
      restartsMs.push(Math.round(performance.now() - t0));
      restarted = true;
      await onSurvivor;
    }
    // a little load on the restarted instance
    let stop = false;
    const after = load([victim], 8, () => stop);
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await after;

    // Retry every write whose answer was lost, with the same key or nonce.
    const lost = writes.filter((w) => w.error);
    for (const w of lost) {
      if (w.kind === 'grant')
        w.retried = await grant(survivor, tenant, buyers[writes.indexOf(w) % buyers.length].userId, gems.id, 7, w.key);
      if (w.kind === 'purchase') w.retried = await purchase(survivor, buyers[writes.indexOf(w) % buyers.length], listing.id, w.key);
    }

    const acked = writes.filter((w) => w.result && w.result.status < 300);
    const fiveHundreds = writes.filter((w) => w.result && w.result.status >= 500);
    expect(fiveHundreds.map((w) => `${w.kind} ${w.result!.status} ${JSON.stringify(w.result!.body)}`)).toEqual([]);

    // Every acknowledged write is present.
    const missing: string[] = [];
    for (const w of acked) {
      if (w.kind === 'register') {
        const { rowCount } = await c.sql.query('SELECT 1 FROM users WHERE id = $1', [w.result!.body.userId]);
        if (!rowCount) missing.push(`user ${w.key}`);
      } else if (w.kind === 'grant') {
        const { rowCount } = await c.sql.query('SELECT 1 FROM resource_ledger WHERE tenant_id = $1 AND idempotency_key = $2', [
          tenant.id,
          w.key,
        ]);
        if (!rowCount) missing.push(`grant ${w.key}`);
      } else {
        const { rowCount } = await c.sql.query('SELECT 1 FROM store_purchases WHERE id = $1 AND nonce = $2', [w.result!.body.id, w.key]);
        if (!rowCount) missing.push(`purchase ${w.key}`);
      }
    }
    expect(missing).toEqual([]);
    // Registered users can log in (their password hash is whole), on the restarted instance too.
    const sample = acked.filter((w) => w.kind === 'register').slice(0, 5);
    for (const w of sample) {
      const login = await victim.call('POST', '/v1/user/auth/password/login', {
        headers: { 'X-Tenant-Id': tenant.id },
        body: { username: registered.get(w.key)!.username, password: 'crash-test-password' },
      });
      expect(login.status).toBe(200);
    }
    // A retried grant or purchase applied at most once: one ledger row per key, one purchase per nonce.
    const { rows: dupGrants } = await c.sql.query(
      `SELECT idempotency_key FROM resource_ledger WHERE tenant_id = $1 AND idempotency_key IS NOT NULL GROUP BY 1 HAVING count(*) > 1`,
      [tenant.id],
    );
    expect(dupGrants).toEqual([]);
    for (const w of lost.filter((x) => x.retried)) expect([200, 201]).toContain(w.retried!.status);

    const invariants = await storeInvariants(c.sql);
    expect(invariants).toEqual(Object.fromEntries(Object.keys(invariants).map((k) => [k, 0])));
    // No half-applied purchase: each has its debit and its item grant.
    const { rows: half } = await c.sql.query(
      `SELECT p.id FROM store_purchases p WHERE NOT EXISTS (SELECT 1 FROM item_grants g WHERE g.reference = p.id::text)`,
    );
    expect(half).toEqual([]);

    report('3. crash (kill -9 under write load)', {
      crashes: CRASHES,
      writesSent: writes.length,
      acknowledged: acked.length,
      byOutcome: countBy(writes, (w) => (w.error ? `lost (${w.error})` : `${w.kind} ${w.result!.status}`)),
      lostThenRetried: lost.filter((w) => w.retried).length,
      retriedOutcomes: countBy(
        lost.filter((w) => w.retried),
        (w) => `${w.retried!.status}${w.retried!.body?.replayed ? ' replayed' : ''}`,
      ),
      acknowledgedMissing: missing.length,
      halfApplied: half.length,
      invariantViolations: Object.values(invariants).reduce((a, b) => a + b, 0),
      restartToReadyMs: restartsMs,
    });
  }, 600_000);
});
