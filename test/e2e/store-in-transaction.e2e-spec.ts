import { useTestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { givenCommunity, givenItem, givenListing, givenRequirement, givenResourceType, givenUser, grant } from '../factories/e2e.js';
import { EMAIL_SCHEMA } from '../factories/inputs.js';
import { ledgerMismatches, purchase, purchaseEvents } from '../helpers/store.js';
import { DomainEvents } from '../../src/common/events/domain-events.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

// The one-statement purchase (store_purchase_item) when a module handles one of its events IN the
// purchase's transaction (DomainEvents.inTransaction): the statement and the handler run in one
// transaction, so the handler's writes commit with the purchase and roll back with a refusal, and
// after-commit handlers still run only after the commit.
describe('the one-statement purchase with an in-transaction handler of its events', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  const seen: { inTransaction: boolean; afterCommit: number }[] = [];

  beforeAll(async () => {
    tenant = await t.givenTenant();
    await subscribeToEveryEvent(t.dataSource, tenant.id);
    const events = t.app.get(DomainEvents);
    events.inTransaction('inventory.supply_taken', async ({ itemId }, em) => {
      seen.push({ inTransaction: em.queryRunner?.isTransactionActive ?? false, afterCommit: 0 });
      await em.query('CREATE TABLE IF NOT EXISTS test_supply_log (item_id uuid NOT NULL)');
      await em.query('INSERT INTO test_supply_log (item_id) VALUES ($1)', [itemId]);
    });
    events.afterCommit('inventory.supply_taken', () => {
      const last = seen.at(-1);
      if (last) last.afterCommit++;
    });
  });

  it('runs the handler in the transaction, commits its write with the purchase, and writes nothing on a refusal', async () => {
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const item = await givenItem(t, tenant, c.id);
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 5 }],
    });
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gems.id, 7)).status).toBe(201);

    const bought = await purchase(t, u, listing.id).expect(201);
    expect(bought.body).toMatchObject({ kind: 'item', itemId: item.id, replayed: false });
    expect(seen).toEqual([{ inTransaction: true, afterCommit: 1 }]);
    const logged = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM test_supply_log WHERE item_id = $1', [item.id]))[0].n;
    expect(await logged()).toBe(1);

    // 2 gems left: refused by the function inside the transaction; nothing of it stays.
    const refused = await purchase(t, u, listing.id).expect(409);
    expect(refused.body).toMatchObject({ error: 'insufficient_balance', details: { required: 5, balance: 2 } });
    expect(seen).toEqual([{ inTransaction: true, afterCommit: 1 }]);
    expect(await logged()).toBe(1);
    const [counts] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM store_purchases WHERE user_id = $1)::int AS purchases,
              (SELECT quantity FROM user_items WHERE user_id = $1 AND item_id = $2) AS held,
              (SELECT balance FROM resource_balances WHERE user_id = $1 AND resource_type_id = $3)::int AS balance,
              (SELECT count(*) FROM notifications WHERE user_id = $1)::int AS notifications`,
      [u.userId, item.id, gems.id],
    );
    expect(counts).toEqual({ purchases: 1, held: 1, balance: 2, notifications: 2 });
    expect(await ledgerMismatches(t, [gems.id])).toEqual([]);
  });

  it('writes the same events to the outbox as the general path does (an item listing with a requirement takes it)', async () => {
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
    const item = await givenItem(t, tenant, c.id);
    const fast = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 3 }],
    });
    const requirement = await givenRequirement(t, tenant, { kind: 'data', schema: EMAIL_SCHEMA });
    const general = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 3 }],
      requirementIds: [requirement.id],
    });
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gems.id, 10)).status).toBe(201);
    const a = await purchase(t, u, fast.id).expect(201);
    const b = await purchase(t, u, general.id, {
      requirementData: [{ requirementId: requirement.id, data: { email: 'a@example.com' } }],
    }).expect(201);
    const viaFunction = await purchaseEvents(t, tenant.id, a.body.id, fast.id);
    expect(viaFunction.map((e) => e.type)).toEqual(['inventory.item_granted', 'resource.debited', 'store.purchase_completed']);
    expect(viaFunction).toEqual(await purchaseEvents(t, tenant.id, b.body.id, general.id));
  });
});
