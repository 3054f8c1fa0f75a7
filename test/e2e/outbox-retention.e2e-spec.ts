import { randomUUID } from 'node:crypto';
import { OutboxRetention } from '../../src/integrations/outbox-retention.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi } from '../helpers/communities.js';
import { createTestApp, useTestApp } from '../helpers/test-app.js';

const DAY = 24 * 3_600_000;

/**
 * The retention pass (OUTBOX_RETENTION_DAYS): deliveries that finished before the cutoff go with
 * their attempts, then the events before it that nothing owes; everything still owed stays.
 */
describe('outbox retention', () => {
  const t = useTestApp({ OUTBOX_RETENTION_DAYS: '30', WEBHOOK_WORKER_ENABLED: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  let tenant: TenantCredentials;
  let subscriptionId: string;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    const sub = await adminApi(t, tenant).post('/v1/admin/webhooks/subscriptions', { url: 'http://127.0.0.1:9/hook', eventTypes: ['*'] });
    expect(sub.status).toBe(201);
    subscriptionId = sub.body.id;
  });

  const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);

  /** An event `daysAgo` old, optionally waiting for NATS, with a delivery in `status` last touched `touchedDaysAgo` ago. */
  async function given(daysAgo: number, delivery?: { status: string; touchedDaysAgo: number }, natsPending = false) {
    const id = randomUUID();
    await t.dataSource.query(
      `INSERT INTO outbox_events (id, tenant_id, type, version, occurred_at, payload, nats_pending)
       VALUES ($1, $2, 'community.joined', 1, $3, '{}', $4)`,
      [id, tenant.id, ago(daysAgo), natsPending],
    );
    if (delivery) {
      const [d] = await t.dataSource.query(
        `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 1, $5, $5, $6) RETURNING id`,
        [tenant.id, subscriptionId, id, delivery.status, ago(daysAgo), ago(delivery.touchedDaysAgo)],
      );
      await t.dataSource.query(
        'INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms) VALUES ($1, $2, 200, 3)',
        [d.id, ago(delivery.touchedDaysAgo)],
      );
    }
    return id;
  }
  const exists = async (eventId: string) => {
    const [row] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM outbox_events WHERE id = $1)::int AS events,
              (SELECT count(*) FROM webhook_deliveries WHERE event_id = $1)::int AS deliveries,
              (SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1)::int AS attempts`,
      [eventId],
    );
    return row as { events: number; deliveries: number; attempts: number };
  };

  it('deletes what finished before the cutoff and keeps what is still owed or recent', async () => {
    const gone = {
      delivered: await given(40, { status: 'delivered', touchedDaysAgo: 40 }),
      dead: await given(45, { status: 'dead', touchedDaysAgo: 44 }),
      noDelivery: await given(31),
      // Five more old delivered ones: the pass below works in batches of 2.
      ...Object.fromEntries(
        await Promise.all([1, 2, 3, 4, 5].map(async (i) => [`batch${i}`, await given(35, { status: 'delivered', touchedDaysAgo: 35 })])),
      ),
    };
    const kept = {
      recent: await given(2, { status: 'delivered', touchedDaysAgo: 2 }),
      pending: await given(40, { status: 'pending', touchedDaysAgo: 40 }),
      delivering: await given(40, { status: 'delivering', touchedDaysAgo: 40 }),
      redeliveredLately: await given(40, { status: 'delivered', touchedDaysAgo: 3 }),
      natsPending: await given(40, undefined, true),
    };

    const deleted = await t.app.get(OutboxRetention).runOnce(2);
    expect(deleted).toEqual({ deliveries: 7, events: 8 });
    for (const [name, id] of Object.entries(gone))
      expect([name, await exists(id as string)]).toEqual([name, { events: 0, deliveries: 0, attempts: 0 }]);
    for (const [name, id] of Object.entries(kept)) expect([name, (await exists(id)).events]).toEqual([name, 1]);
    expect((await exists(kept.pending)).deliveries).toBe(1);
    expect((await exists(kept.redeliveredLately)).attempts).toBe(1);

    // What it kept goes once it is no longer owed and old enough.
    await t.dataSource.query("UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = $1", [kept.pending]);
    await t.dataSource.query('UPDATE outbox_events SET nats_pending = false WHERE id = $1', [kept.natsPending]);
    expect(await t.app.get(OutboxRetention).runOnce()).toEqual({ deliveries: 1, events: 2 });
    expect((await exists(kept.pending)).events).toBe(0);
    expect((await exists(kept.natsPending)).events).toBe(0);
    expect((await exists(kept.recent)).events).toBe(1);
  });

  it('keeps everything with OUTBOX_RETENTION_DAYS=0', async () => {
    const keepAll = await createTestApp({ OUTBOX_RETENTION_DAYS: '0', DATABASE_URL: t.config.DATABASE_URL! });
    try {
      const old = await given(400);
      expect(await keepAll.app.get(OutboxRetention).runOnce()).toEqual({ deliveries: 0, events: 0 });
      expect((await exists(old)).events).toBe(1);
    } finally {
      await keepAll.close();
    }
  });
});
