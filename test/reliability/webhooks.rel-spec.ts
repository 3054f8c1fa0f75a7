import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type Cluster } from '../helpers/processes.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { asAdmin, expectOk, pool, register, report, scale } from './support.js';

const USERS = scale(150, 600);

/**
 * Webhooks across instances: two instances deliver, one is killed (-9) in the middle of a batch.
 * Nothing is lost: the deliveries it had leased are sent again by the other once the lease runs
 * out; the receiver dedupes by event id (what the docs ask receivers to do).
 */
describe(`webhooks: kill -9 of a delivering instance (${USERS * 2} events)`, () => {
  let c: Cluster;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    c = await startCluster(createTestDatabase, 2, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_BATCH_SIZE: '50',
    });
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await receiver?.close();
  });

  it('loses no event and the receiver dedupes by id', async () => {
    const [victim, survivor] = c.apps;
    // A slow receiver, so the victim has requests in flight when it dies.
    receiver.delayMs = 50;
    expectOk(
      await survivor.call('POST', '/v1/admin/webhooks/subscriptions', {
        headers: asAdmin(c.tenant),
        body: { url: receiver.url, eventTypes: ['user.registered', 'user.logged_in'] },
      }),
      201,
      'create subscription',
    );

    // Writes through the survivor; both instances' workers deliver (the victim by polling).
    const writing = pool(4, USERS, () => register(survivor, c.tenant));
    await receiver.waitFor((r) => r.length >= USERS / 2, 60_000);
    const inFlightAtKill = receiver.received.length;
    await victim.kill('SIGKILL');
    await writing;

    const [{ n: total }]: { n: number }[] = (
      await c.sql.query('SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1', [c.tenant.id])
    ).rows;
    expect(total).toBe(USERS * 2);
    // Every event reaches the receiver (the victim's leased ones after the lease: timeout + 10 s).
    await receiver.waitFor((r) => new Set(r.map((d) => d.json.id)).size >= total, 90_000);
    const unique = new Set(receiver.received.map((d) => d.json.id));
    expect(unique.size).toBe(total);
    const statuses: { status: string; n: number }[] = (
      await c.sql.query('SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 GROUP BY status', [c.tenant.id])
    ).rows;
    // Recorded as delivered once the survivor's own attempts are in.
    for (let i = 0; i < 100; i++) {
      const rows: { n: number }[] = (
        await c.sql.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status <> 'delivered'", [c.tenant.id])
      ).rows;
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const undelivered: { n: number }[] = (
      await c.sql.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status <> 'delivered'", [c.tenant.id])
    ).rows;
    expect(undelivered[0].n).toBe(0);
    report('webhooks: kill -9 of a delivering instance', {
      events: total,
      receivedBeforeKill: inFlightAtKill,
      receivedTotal: receiver.received.length,
      duplicatesDeduped: receiver.received.length - unique.size,
      statusesWhenAllReceived: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
    });
  });
});
