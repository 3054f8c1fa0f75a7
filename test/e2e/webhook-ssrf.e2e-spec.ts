import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The URL guard at delivery time (issue 46): a subscription whose URL points into the service's own
 * network by the time it is delivered (a row written before the guard, DNS that changed) is never
 * delivered, whether its host is a name or an address in any form. A receiver on loopback stands
 * for the internal service an attacker would reach; private URLs are not allowed here.
 */
describe('webhook deliveries never reach a non-public address', () => {
  const t = useTestApp({ WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_WINDOW_MS: '200', WEBHOOK_POLL_INTERVAL_MS: '20' });
  let receiver: WebhookReceiver;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    tenant = await t.givenTenant();
  });
  afterAll(() => receiver.close());

  it.each([
    ['an IPv4 address', (port: string) => `http://127.0.0.1:${port}/hook`],
    ['an IPv4-mapped IPv6 address', (port: string) => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['a name that resolves to loopback', (port: string) => `http://localhost:${port}/hook`],
  ])('refuses %s at every attempt, and records why', async (_, target) => {
    const api = adminApi(t, tenant);
    // Saved while it pointed at a public address (the check at save time passes) ...
    const sub = await api.post('/v1/admin/webhooks/subscriptions', { url: 'http://93.184.215.14/hook', eventTypes: ['resource.credited'] });
    expect(sub.status).toBe(201);
    // ... and pointing at the internal network by the time of the delivery.
    await t.dataSource.query('UPDATE webhook_subscriptions SET url = $1 WHERE id = $2', [target(new URL(receiver.url).port), sub.body.id]);
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: `gems-${Date.now()}`, name: 'Gems' });
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gems.id, 5)).status).toBe(201);

    const page = await until(
      async () =>
        (await api.get(`/v1/admin/webhooks/deliveries?subscriptionId=${sub.body.id}`)).body as {
          items: { status: string; lastError: string | null; attempts: number }[];
        },
      (p) => p.items.length > 0 && p.items.every((d) => d.attempts >= 2),
      { timeoutMs: 10_000 },
    );
    for (const d of page.items) expect(d.lastError).toMatch(/not a public address/);
    expect(receiver.received).toEqual([]);
    await t.http().delete(`/v1/admin/webhooks/subscriptions/${sub.body.id}`).set('X-Api-Key', tenant.apiKey).expect(204);
  });
});
