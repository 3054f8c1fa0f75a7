import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { givenItem, givenListing, purchase } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';

/**
 * `OUTBOX_ENABLED=false` (a deployment that integrates nothing, and the bench's measure of what
 * the outbox costs): the writes happen as usual and no event is written.
 */
describe('with the outbox turned off', () => {
  const t = useTestApp({ OUTBOX_ENABLED: 'false', MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  it('registers, joins, grants and sells as usual and writes no event', async () => {
    const community = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, community.id);
    const buyer = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', buyer.auth).expect(201);
    expect((await grant(t, tenant, buyer.userId, gems.id, 10)).status).toBe(201);
    const item = await givenItem(t, tenant, community.id);
    const listing = await givenListing(t, tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 4 }],
      totalSupply: 5,
    });
    const bought = await purchase(t, buyer, listing.id);
    expect({ status: bought.status, replayed: bought.body.replayed }).toEqual({ status: 201, replayed: false });

    const [counts] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM outbox_events WHERE tenant_id = $1)::int AS events,
              (SELECT count(*) FROM store_purchases WHERE listing_id = $2)::int AS purchases,
              (SELECT balance FROM resource_balances WHERE user_id = $3 AND resource_type_id = $4)::int AS balance,
              (SELECT count(*) FROM notifications WHERE user_id = $3 AND type = 'purchase_completed')::int AS notified`,
      [tenant.id, listing.id, buyer.userId, gems.id],
    );
    expect(counts).toEqual({ events: 0, purchases: 1, balance: 6, notified: 1 });
  });
});
