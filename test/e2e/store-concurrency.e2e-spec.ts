/**
 * @lane heavy: 1,000 purchase attempts, 50 in flight on one listing row, in this process; next to a
 * reliability file's app processes it starves into lock timeouts (test/setup/lane-runner.mjs).
 */
import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenListing, givenPrize, inFlight, ledgerMismatches, purchase } from '../helpers/store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const USERS = 50;
const ATTEMPTS = 1000;
const SUPPLY = 100;
const PRICE = 10;
const LIMIT = 2;

describe('the store under 1,000 concurrent purchase attempts at one listing', () => {
  const t = useTestApp({ DB_POOL_SIZE: '10' });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  it('sells at most the supply, keeps every limit and balance, and charges each nonce at most once', async () => {
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const prize = await givenPrize(t, tenant, { communityId: c.id, totalSupply: SUPPLY });
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'prize',
      prizeId: prize.id,
      price: [{ resourceTypeId: gems.id, amount: PRICE }],
      totalSupply: SUPPLY,
      perUserLimit: LIMIT,
    });
    const users: TestUser[] = [];
    for (let i = 0; i < USERS; i++) users.push(await givenUser(t, tenant));
    await inFlight(
      10,
      users.map((u) => () => grant(t, tenant, u.userId, gems.id, 3 * PRICE).expect(201)),
    );

    // The plan: each attempt is a user and a nonce; about a third replay a nonce that user already sent.
    const random = prng(20250101);
    const sent = new Map<string, string[]>();
    const plan = Array.from({ length: ATTEMPTS }, (_, i) => {
      const u = users[Math.floor(random() * USERS)];
      const mine = sent.get(u.userId) ?? [];
      const replay = mine.length > 0 && random() < 0.35;
      const nonce = replay ? mine[Math.floor(random() * mine.length)] : `n-${i}`;
      if (!replay) sent.set(u.userId, [...mine, nonce]);
      return { u, nonce, replay };
    });
    expect(plan.filter((p) => p.replay).length).toBeGreaterThan(200);

    const responses = await inFlight(
      50,
      plan.map(({ u, nonce }) => async () => {
        const res = await purchase(t, u, listing.id, { nonce });
        return {
          userId: u.userId,
          nonce,
          status: res.status,
          code: res.body.code as number | undefined,
          id: res.body.id as string | undefined,
          replayed: res.body.replayed as boolean | undefined,
        };
      }),
    );

    // Only the expected answers: bought (or replayed), sold out, limit reached. Never a 5xx.
    const outcomes = new Map<string, number>();
    for (const r of responses)
      outcomes.set(
        r.status === 201 ? (r.replayed ? 'replayed' : 'bought') : `${r.status}/${r.code}`,
        (outcomes.get(r.status === 201 ? (r.replayed ? 'replayed' : 'bought') : `${r.status}/${r.code}`) ?? 0) + 1,
      );
    expect([...outcomes.keys()].filter((k) => !['bought', 'replayed', '409/40002', '409/40003'].includes(k))).toEqual([]);

    // Responses: a nonce is bought at most once, and every 201 for it names the same purchase.
    const byNonce = new Map<string, typeof responses>();
    for (const r of responses) byNonce.set(`${r.userId}/${r.nonce}`, [...(byNonce.get(`${r.userId}/${r.nonce}`) ?? []), r]);
    for (const rs of byNonce.values()) {
      const ok = rs.filter((r) => r.status === 201);
      expect(ok.filter((r) => !r.replayed).length).toBeLessThanOrEqual(1);
      expect(new Set(ok.map((r) => r.id)).size).toBeLessThanOrEqual(1);
    }
    const bought = responses.filter((r) => r.status === 201 && !r.replayed);

    // The database agrees.
    const purchases: { id: string; user_id: string; nonce: string }[] = await t.dataSource.query(
      'SELECT id, user_id, nonce FROM store_purchases WHERE listing_id = $1',
      [listing.id],
    );
    expect(purchases.length).toBe(bought.length);
    expect(purchases.length).toBeLessThanOrEqual(SUPPLY);
    // Each of the 50 users had enough fresh nonces to reach the limit, so the supply sells out exactly.
    expect(purchases.length).toBe(Math.min(SUPPLY, USERS * LIMIT));
    expect(new Set(purchases.map((p) => `${p.user_id}/${p.nonce}`)).size).toBe(purchases.length);

    const perUser = new Map<string, number>();
    for (const p of purchases) perUser.set(p.user_id, (perUser.get(p.user_id) ?? 0) + 1);
    expect(Math.max(...perUser.values())).toBeLessThanOrEqual(LIMIT);
    const counts: { user_id: string; count: number }[] = await t.dataSource.query(
      'SELECT user_id, count FROM store_purchase_counts WHERE listing_id = $1',
      [listing.id],
    );
    for (const row of counts) expect(row.count).toBe(perUser.get(row.user_id) ?? 0);

    // Every purchase was charged exactly once (one debit row per purchase), nothing else was.
    const debits: { reference: string; n: number; total: string }[] = await t.dataSource.query(
      `SELECT reference, COUNT(*)::int AS n, SUM(delta) AS total FROM resource_ledger WHERE resource_type_id = $1 AND reason = 'store_purchase' GROUP BY reference`,
      [gems.id],
    );
    expect(debits.length).toBe(purchases.length);
    expect(debits.every((d) => d.n === 1 && Number(d.total) === -PRICE)).toBe(true);
    expect(new Set(debits.map((d) => d.reference))).toEqual(new Set(purchases.map((p) => p.id)));

    // Balances: never negative, exactly the grant minus what each user bought, and equal to the ledger sums.
    const balances: { user_id: string; balance: string }[] = await t.dataSource.query(
      'SELECT user_id, balance FROM resource_balances WHERE resource_type_id = $1',
      [gems.id],
    );
    expect(balances).toHaveLength(USERS);
    for (const b of balances) {
      expect(Number(b.balance)).toBeGreaterThanOrEqual(0);
      expect(Number(b.balance)).toBe(3 * PRICE - PRICE * (perUser.get(b.user_id) ?? 0));
    }
    expect(await ledgerMismatches(t, [gems.id])).toEqual([]);

    // Supply: remaining + sold = initial, for the listing and for the prize it grants.
    const after = (await adminApi(t, tenant).get(`/v1/admin/store/listings/${listing.id}`).expect(200)).body;
    expect(after.sold).toBe(purchases.length);
    expect(after.remainingSupply + after.sold).toBe(SUPPLY);
    const supply = (await t.http().get(`/v1/inventory/prizes/${prize.id}/supply`).set('Authorization', users[0].auth).expect(200)).body;
    expect(supply).toEqual({
      prizeId: prize.id,
      totalSupply: SUPPLY,
      awarded: purchases.length,
      remainingSupply: SUPPLY - purchases.length,
    });
    const owners = (await adminApi(t, tenant).get(`/v1/admin/prizes/${prize.id}/owners?limit=100`).expect(200)).body;
    expect(owners.items.reduce((s: number, o: { quantity: number }) => s + o.quantity, 0)).toBe(purchases.length);
  });
});
