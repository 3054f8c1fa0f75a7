/**
 * @lane heavy: hundreds of purchases in flight on one listing, in this process (as
 * store-concurrency.e2e-spec.ts).
 *
 * The supply shards of listings and items (docs/decisions.md, "Store and prizes"): a listing sells
 * out exactly at its total supply however the purchases land on its shards, a shard that is out
 * never makes the listing look sold out while another has stock, supply changes while buying keep
 * the caps adding up to the supply, and an item's supply shared by two listings is never oversold.
 */
import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenItem, givenListing, inFlight, ledgerMismatches, purchase } from '../helpers/store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { SupplyShards1795594943964 } from '../../migrations/1795594943964-SupplyShards.js';
import { uniqueName } from '../factories/unique-name.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Outcome counts: `bought` or `<status>/<error>`. */
function outcomes(responses: { status: number; body: { error?: string } }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of responses) {
    const k = r.status === 201 ? 'bought' : `${r.status}/${r.body.error}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('supply shards', () => {
  const t = useTestApp({ DB_POOL_SIZE: '10' });
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let gems: { id: string };
  let buyers: TestUser[];

  beforeAll(async () => {
    tenant = await t.givenTenant();
    c = await givenCommunity(t, tenant);
    gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    buyers = await inFlight(
      10,
      Array.from({ length: 60 }, () => async () => {
        const u = await givenUser(t, tenant);
        expect((await grant(t, tenant, u.userId, gems.id, 1_000_000)).status).toBe(201);
        return u;
      }),
    );
  });

  const admin = () => adminApi(t, tenant);
  const price = [{ resourceTypeId: '', amount: 1 }];
  const itemListing = (itemId: string, fields: Record<string, unknown> = {}) =>
    givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId,
      price: price.map((p) => ({ ...p, resourceTypeId: gems.id })),
      ...fields,
    });
  /**
   * A purchase as a client makes it: a 503 `database_timeout` (the machine is loaded and the wait
   * for the listing passed DB_LOCK_TIMEOUT_MS) is retried with the same nonce after Retry-After.
   */
  const buy = async (user: TestUser, listingId: string) => {
    const nonce = uniqueName('n');
    for (let attempt = 1; ; attempt++) {
      const r = await purchase(t, user, listingId, { nonce });
      if (r.status !== 503 || attempt === 10) return r;
      await sleep(1000);
    }
  };
  const buyMany = (listingId: string, attempts: number, width: number) =>
    inFlight(
      width,
      Array.from({ length: attempts }, (_, i) => () => buy(buyers[i % buyers.length], listingId)),
    );

  /** The listing's shards: Σ sold, Σ cap (null when unlimited), and whether any is over its cap. */
  const listingShards = async (listingId: string) => {
    const [row]: { n: number; sold: number; cap: number | null; over: number }[] = await t.dataSource.query(
      `SELECT COUNT(*)::int AS n, SUM(sold)::int AS sold, SUM(cap)::int AS cap, COUNT(*) FILTER (WHERE sold > cap)::int AS over
       FROM store_listing_shards WHERE listing_id = $1`,
      [listingId],
    );
    return row;
  };
  const itemShards = async (itemId: string) => {
    const [row]: { n: number; granted: number; cap: number | null; over: number; grants: number; held: number }[] =
      await t.dataSource.query(
        `SELECT COUNT(*)::int AS n, SUM(granted)::int AS granted, SUM(cap)::int AS cap, COUNT(*) FILTER (WHERE granted > cap)::int AS over,
              (SELECT COALESCE(SUM(quantity), 0)::int FROM item_grants WHERE item_id = $1) AS grants,
              (SELECT COALESCE(SUM(quantity), 0)::int FROM user_items WHERE item_id = $1) AS held
       FROM inventory_item_shards WHERE item_id = $1`,
        [itemId],
      );
    return row;
  };
  const purchasesOf = async (listingId: string) =>
    Number((await t.dataSource.query('SELECT COUNT(*)::int AS n FROM store_purchases WHERE listing_id = $1', [listingId]))[0].n);
  const listingDto = async (id: string) => (await admin().get(`/v1/admin/store/listings/${id}`).expect(200)).body;

  it('sells out exactly at the total supply with 300 purchases in flight over 16 shards', async () => {
    const item = await givenItem(t, tenant, c.id);
    const listing = await itemListing(item.id, { totalSupply: 37 });
    expect(await listingShards(listing.id)).toEqual({ n: 16, sold: 0, cap: 37, over: 0 });

    const responses = await buyMany(listing.id, 300, 60);

    expect(outcomes(responses)).toEqual({ bought: 37, '409/listing_sold_out': 263 });
    expect(await listingShards(listing.id)).toEqual({ n: 16, sold: 37, cap: 37, over: 0 });
    expect(await purchasesOf(listing.id)).toBe(37);
    expect(await itemShards(item.id)).toEqual({ n: 16, granted: 37, cap: null, over: 0, grants: 37, held: 37 });
    expect(await listingDto(listing.id)).toMatchObject({ totalSupply: 37, sold: 37, remainingSupply: 0 });
    const itemDto = (
      await t.http().get(`/v1/community/${c.id}/inventory/items/${item.id}`).set('Authorization', buyers[0].auth).expect(200)
    ).body;
    expect(itemDto).toMatchObject({ granted: 37, supply: null, remaining: null });
    expect(await ledgerMismatches(t, [gems.id])).toEqual([]);

    // The `sold` and `granted` columns are summaries folded shortly after the commits.
    for (let i = 0; i < 50; i++) {
      const [cols] = await t.dataSource.query(
        'SELECT (SELECT sold FROM store_listings WHERE id = $1) AS sold, (SELECT granted FROM inventory_items WHERE id = $2) AS granted',
        [listing.id, item.id],
      );
      if (cols.sold === 37 && cols.granted === 37) break;
      await sleep(100);
    }
    const [cols] = await t.dataSource.query(
      'SELECT (SELECT sold FROM store_listings WHERE id = $1) AS sold, (SELECT granted FROM inventory_items WHERE id = $2) AS granted',
      [listing.id, item.id],
    );
    expect(cols).toEqual({ sold: 37, granted: 37 });
  });

  it('moves on to another shard when the one it tried is out: no false sold-out', async () => {
    // 16 units over 16 shards: one each, so buying one after another hits empty shards ever more often.
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'resource',
      resourceTypeId: gems.id,
      price: [{ resourceTypeId: gems.id, amount: 1 }],
      totalSupply: 16,
    });
    for (let i = 0; i < 16; i++) expect((await purchase(t, buyers[i], listing.id)).status).toBe(201);
    const last = await purchase(t, buyers[16], listing.id);
    expect([last.status, last.body.error]).toEqual([409, 'listing_sold_out']);
    expect(await listingShards(listing.id)).toEqual({ n: 16, sold: 16, cap: 16, over: 0 });
  });

  it('waits for a shard another transaction holds instead of answering sold out, and answers sold out once that one took the last unit', async () => {
    // Supply 1: shard 0 holds the only unit.
    const listing = await itemListing((await givenItem(t, tenant, c.id)).id, { totalSupply: 1 });
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    try {
      // Held, then given back (a purchase that rolls back): the waiting purchase gets the unit.
      await holder.startTransaction();
      await holder.query('SELECT 1 FROM store_listing_shards WHERE listing_id = $1 AND shard = 0 FOR UPDATE', [listing.id]);
      const sent = Date.now();
      const pending = purchase(t, buyers[0], listing.id).then((r) => ({ r, ms: Date.now() - sent }));
      await sleep(400);
      await holder.rollbackTransaction();
      const bought = await pending;
      expect(bought.r.status).toBe(201);
      expect(bought.ms).toBeGreaterThanOrEqual(350); // it waited for the holder

      // Resupplied to 2 (the new unit goes to one shard); held and taken by another transaction
      // that commits: the waiting purchase then finds none left.
      await admin().patch(`/v1/admin/store/listings/${listing.id}`, { totalSupply: 2 }).expect(200);
      const [{ shard }] = await t.dataSource.query(
        'SELECT shard FROM store_listing_shards WHERE listing_id = $1 AND sold < cap ORDER BY shard LIMIT 1',
        [listing.id],
      );
      await holder.startTransaction();
      await holder.query('UPDATE store_listing_shards SET sold = sold + 1 WHERE listing_id = $1 AND shard = $2', [listing.id, shard]);
      const sentAgain = Date.now();
      const refused = purchase(t, buyers[1], listing.id).then((r) => ({ r, ms: Date.now() - sentAgain }));
      await sleep(400);
      await holder.commitTransaction();
      const { r, ms } = await refused;
      expect([r.status, r.body.error]).toEqual([409, 'listing_sold_out']);
      expect(ms).toBeGreaterThanOrEqual(350);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('keeps the caps adding up to the supply when the supply changes while buying, and sells out exactly at the last one', async () => {
    const item = await givenItem(t, tenant, c.id);
    const listing = await itemListing(item.id, { totalSupply: 30 });
    const supplies = [45, 25, 60, 90];
    let stop = false;
    const changes: { supply: number; status: number; error?: string }[] = [];
    const changer = (async () => {
      for (const supply of supplies) {
        await sleep(60);
        const r = await admin().patch(`/v1/admin/store/listings/${listing.id}`, { totalSupply: supply });
        changes.push({ supply, status: r.status, error: r.body.error });
        if (stop) break;
      }
    })();
    const responses = await buyMany(listing.id, 150, 30);
    stop = true;
    await changer;

    // Every change either applied, or was refused for being below the units sold at that moment
    // (or, on a loaded machine, for waiting past the lock timeout for the purchases in flight).
    for (const ch of changes)
      expect(
        ch.status === 200 ||
          (ch.status === 400 && ch.error === 'invalid_listing') ||
          (ch.status === 503 && ch.error === 'database_timeout'),
      ).toBe(true);
    expect(changes.some((ch) => ch.status === 200)).toBe(true);
    expect(Object.keys(outcomes(responses)).filter((k) => !['bought', '409/listing_sold_out'].includes(k))).toEqual([]);
    const finalSupply = (await listingDto(listing.id)).totalSupply as number;
    const shards = await listingShards(listing.id);
    expect(shards).toMatchObject({ n: 16, cap: finalSupply, over: 0 });
    expect(shards.sold).toBe(await purchasesOf(listing.id));
    expect(shards.sold).toBe(outcomes(responses).bought);

    // What is left sells exactly: one after another, until the first refusal.
    let more = 0;
    while ((await purchase(t, buyers[more % buyers.length], listing.id)).status === 201) more++;
    expect(shards.sold + more).toBe(finalSupply);
    expect(await listingShards(listing.id)).toEqual({ n: 16, sold: finalSupply, cap: finalSupply, over: 0 });
    expect(await listingDto(listing.id)).toMatchObject({ sold: finalSupply, remainingSupply: 0 });

    // Below the units sold is refused; exactly the units sold is allowed (and sold out).
    const below = await admin().patch(`/v1/admin/store/listings/${listing.id}`, { totalSupply: finalSupply - 1 });
    expect([below.status, below.body.error]).toEqual([400, 'invalid_listing']);
    await admin().patch(`/v1/admin/store/listings/${listing.id}`, { totalSupply: null }).expect(200);
    expect(await listingShards(listing.id)).toEqual({ n: 16, sold: finalSupply, cap: null, over: 0 });
    expect((await purchase(t, buyers[0], listing.id)).status).toBe(201);
  });

  it('never oversells an item whose supply two listings share', async () => {
    const item = await givenItem(t, tenant, c.id, { supply: 25 });
    const unlimited = await itemListing(item.id);
    const capped = await itemListing(item.id, { totalSupply: 20 });
    const responses = await inFlight(
      40,
      Array.from({ length: 120 }, (_, i) => () => buy(buyers[i % buyers.length], i % 2 ? unlimited.id : capped.id)),
    );
    expect(outcomes(responses)).toEqual({ bought: 25, '409/listing_sold_out': 95 });
    expect(await itemShards(item.id)).toEqual({ n: 16, granted: 25, cap: 25, over: 0, grants: 25, held: 25 });
    const a = await listingShards(unlimited.id);
    const b = await listingShards(capped.id);
    expect(a.sold + b.sold).toBe(25);
    expect(b.sold).toBeLessThanOrEqual(20);
    expect(a.sold).toBe(await purchasesOf(unlimited.id));
    expect(b.sold).toBe(await purchasesOf(capped.id));

    // A supply change of the item redistributes its shards (never below the units granted).
    const below = await admin().patch(`/v1/admin/inventory/items/${item.id}`, { supply: 24 });
    expect([below.status, below.body.error]).toEqual([400, 'supply_below_granted']);
    expect((await admin().patch(`/v1/admin/inventory/items/${item.id}`, { supply: 27 }).expect(200)).body).toMatchObject({
      supply: 27,
      granted: 25,
      remaining: 2,
    });
    expect(await itemShards(item.id)).toMatchObject({ granted: 25, cap: 27, over: 0 });
    const after = await inFlight(
      4,
      Array.from({ length: 4 }, (_, i) => () => purchase(t, buyers[i], unlimited.id)),
    );
    expect(outcomes(after)).toEqual({ bought: 2, '409/listing_sold_out': 2 });
  });

  it('takes a grant of several units from several shards when no single shard has them', async () => {
    // 16 units over 16 shards (one each); each purchase grants 4 units of the item.
    const item = await givenItem(t, tenant, c.id, { supply: 16 });
    const listing = await itemListing(item.id, { quantity: 4 });
    for (let i = 0; i < 4; i++) expect((await purchase(t, buyers[i], listing.id)).status).toBe(201);
    const fifth = await purchase(t, buyers[4], listing.id);
    expect([fifth.status, fifth.body.error]).toEqual([409, 'listing_sold_out']);
    expect(await itemShards(item.id)).toEqual({ n: 16, granted: 16, cap: 16, over: 0, grants: 16, held: 16 });
  });
  it('gives existing listings and items their shards when a database is upgraded (the migration)', async () => {
    // A listing (8 units, 3 sold) and an unlimited one of an item with 10 units.
    const item = await givenItem(t, tenant, c.id, { supply: 10 });
    const capped = await itemListing(item.id, { totalSupply: 8 });
    const unlimited = await itemListing(item.id);
    for (let i = 0; i < 3; i++) expect((await purchase(t, buyers[i], capped.id)).status).toBe(201);
    await sleep(300); // the summaries' folds of these purchases
    const sums = async () =>
      t.dataSource.query(
        `SELECT (SELECT json_object_agg(listing_id, json_build_array(s, c)) FROM (SELECT listing_id, SUM(sold)::int AS s, SUM(cap)::int AS c FROM store_listing_shards GROUP BY 1) x) AS listings,
                (SELECT json_object_agg(item_id, json_build_array(s, c)) FROM (SELECT item_id, SUM(granted)::int AS s, SUM(cap)::int AS c FROM inventory_item_shards GROUP BY 1) y) AS items`,
      );
    const before = await sums();

    const migration = new SupplyShards1795594943964();
    const qr = t.dataSource.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
      // Down gives the rows their counts back (the schema before it), up moves them into shards.
      await migration.down(qr);
      const [rows] = await qr.query(
        'SELECT (SELECT sold FROM store_listings WHERE id = $1) AS sold, (SELECT granted FROM inventory_items WHERE id = $2) AS granted',
        [capped.id, item.id],
      );
      expect(rows).toEqual({ sold: 3, granted: 3 });
      await migration.up(qr);
      await qr.commitTransaction();
    } finally {
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      await qr.release();
    }

    expect(await sums()).toEqual(before);
    expect(await listingShards(capped.id)).toEqual({ n: 16, sold: 3, cap: 8, over: 0 });
    expect(await listingShards(unlimited.id)).toEqual({ n: 16, sold: 0, cap: null, over: 0 });
    expect(await itemShards(item.id)).toMatchObject({ n: 16, granted: 3, cap: 10, over: 0, grants: 3 });
    // And it sells on exactly: 5 more of the capped listing, then 2 of the item through the other.
    let more = 0;
    while ((await purchase(t, buyers[more % buyers.length], capped.id)).status === 201) more++;
    expect(more).toBe(5);
    const rest = await inFlight(
      3,
      Array.from({ length: 3 }, (_, i) => () => purchase(t, buyers[i], unlimited.id)),
    );
    expect(outcomes(rest)).toEqual({ bought: 2, '409/listing_sold_out': 1 });
  });
});
