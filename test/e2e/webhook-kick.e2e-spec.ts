import { jest } from '@jest/globals';
import { WebhooksRepository } from '../../src/integrations/webhooks.repository.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { givenItem, givenListing, purchase } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * When the webhook worker runs: a commit whose events made deliveries starts a pass at once (the
 * poll is 10 minutes here, so only that start can deliver in time); a commit that made none starts
 * none (a claim statement per purchase or login would be database work for nothing). Events no
 * subscription takes are not written at all (NATS is off here).
 */
describe('Integrations: what starts a webhook pass', () => {
  const t = useTestApp({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '600000',
    MINT_WORKER_ENABLED: 'false',
    QUEST_EVENT_WORKER_ENABLED: 'false',
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  /** A tenant with an item listing (the purchase's one-statement path) and a buyer who can pay it twice. */
  async function shop(subscription: { eventTypes: string[]; active?: boolean } | null) {
    const tenant = await t.givenTenant();
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems', name: 'Gems' });
    if (subscription)
      expect((await adminApi(t, tenant).post('/v1/admin/webhooks/subscriptions', { url: receiver.url, ...subscription })).status).toBe(201);
    const item = await givenItem(t, tenant, c.id);
    const listing = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: gems.id, amount: 5 }],
    });
    const buyer = await givenUser(t, tenant);
    expect((await grant(t, tenant, buyer.userId, gems.id, 10)).status).toBe(201);
    return { tenant, gems, listing, buyer };
  }
  const typesOf = (tenant: TenantCredentials) =>
    receiver.received
      .filter((d) => d.json.tenantId === tenant.id)
      .map((d) => d.json.type)
      .sort();

  it('starts a pass when a commit made deliveries: the one-statement purchase and a transaction', async () => {
    const { tenant, gems, listing, buyer } = await shop({ eventTypes: ['*'] });
    // The grant above (a transaction) was delivered without a poll.
    await receiver.waitFor(() => typesOf(tenant).includes('resource.credited'), 5000);
    await purchase(t, buyer, listing.id, { nonce: 'kick-1' }).expect(201);
    await receiver.waitFor(() => typesOf(tenant).includes('store.purchase_completed'), 5000);
    await receiver.waitFor(() => typesOf(tenant).length === 6, 5000);
    expect(typesOf(tenant)).toEqual([
      'inventory.item_granted',
      'resource.credited',
      'resource.debited',
      'store.purchase_completed',
      'user.logged_in',
      'user.registered',
    ]);
    expect((await grant(t, tenant, buyer.userId, gems.id, 1)).status).toBe(201);
    await receiver.waitFor(() => typesOf(tenant).filter((x) => x === 'resource.credited').length === 2, 5000);
  });

  const writtenTypes = async (tenant: TenantCredentials): Promise<string[]> =>
    (await t.dataSource.query<{ type: string }[]>('SELECT type FROM outbox_events WHERE tenant_id = $1 ORDER BY type', [tenant.id])).map(
      (r) => r.type,
    );

  it.each([
    ['a tenant without subscriptions', null],
    ['a tenant whose only subscription is inactive', { eventTypes: ['*'], active: false }],
  ])('starts none and writes no event when nothing takes them (%s)', async (_, subscription) => {
    const { tenant, gems, listing, buyer } = await shop(subscription);
    const claims = jest.spyOn(t.app.get(WebhooksRepository), 'claimDue');
    try {
      await purchase(t, buyer, listing.id, { nonce: 'quiet-1' }).expect(201);
      expect((await grant(t, tenant, buyer.userId, gems.id, 1)).status).toBe(201);
      // Events no sink takes are not written (NATS is off here): nothing would ever read them.
      expect(await writtenTypes(tenant)).toEqual([]);
      expect(claims).not.toHaveBeenCalled();
    } finally {
      claims.mockRestore();
    }
  });

  it('writes only the events of the types an active subscription takes, and delivers them', async () => {
    const { tenant, gems, listing, buyer } = await shop({ eventTypes: ['store.purchase_completed', 'resource.debited'] });
    await purchase(t, buyer, listing.id, { nonce: 'typed-1' }).expect(201);
    expect((await grant(t, tenant, buyer.userId, gems.id, 1)).status).toBe(201);
    // The purchase also granted an item and the grant credited gems: neither type is taken.
    expect(await writtenTypes(tenant)).toEqual(['resource.debited', 'store.purchase_completed']);
    await receiver.waitFor(() => typesOf(tenant).length === 2, 5000);
    expect(typesOf(tenant)).toEqual(['resource.debited', 'store.purchase_completed']);
  });
});
