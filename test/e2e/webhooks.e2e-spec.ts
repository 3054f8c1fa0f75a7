import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import { isPublicEventType, PUBLIC_EVENT_TYPES } from '../../src/integrations/event-catalog.js';
import { eventValidators } from '../helpers/event-schemas.js';
import { WebhookSecrets } from '../../src/integrations/webhook-secrets.js';
import { verifyWebhookSignature } from '../../src/integrations/webhook-signature.js';
import { WebhookWorker } from '../../src/integrations/webhook-worker.js';
import { WebhooksRepository } from '../../src/integrations/webhooks.repository.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { verifyCgsWebhook } from '../../docs/examples/verify-webhook.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { admin, eventApi, givenEvent, givenEventQuest, givenMember, HOUR } from '../helpers/quests.js';
import { givenItem, givenListing, givenPrize, purchase } from '../helpers/store.js';
import { useTestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('Integrations: outbox and webhooks', () => {
  // A local receiver on 127.0.0.1 (allowed here only), fast retries: 20 ms doubling within 500 ms
  // (offsets 0, 20, 60, 140, 300, 500: six attempts, then dead-lettered).
  const t = useTestApp({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_BASE_MS: '20',
    WEBHOOK_RETRY_WINDOW_MS: '500',
    WEBHOOK_POLL_INTERVAL_MS: '20',
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    receiver.respond = () => 200;
  });

  /** A tenant with a community, gems, and a subscription to `types` (the secret returned). */
  async function given(types: string[] = ['*']) {
    const tenant = await t.givenTenant();
    const c = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems', name: 'Gems' });
    const sub = await adminApi(t, tenant).post('/v1/admin/webhooks/subscriptions', { url: receiver.url, eventTypes: types });
    expect(sub.status).toBe(201);
    return { tenant, c, gems, sub: sub.body as { id: string; secret: string } };
  }
  const fundedUser = async (tenant: TenantCredentials, gemsId: string, amount: number) => {
    const u = await givenUser(t, tenant);
    expect((await grant(t, tenant, u.userId, gemsId, amount)).status).toBe(201);
    return u;
  };
  const ofTenant = (tenant: TenantCredentials) => receiver.received.filter((d) => d.json.tenantId === tenant.id);
  const deliveries = async (tenant: TenantCredentials, query = '') =>
    (await adminApi(t, tenant).get(`/v1/admin/webhooks/deliveries${query}`).expect(200)).body;
  type Delivery = { status: string; attempts: number };
  /**
   * The deliveries page once every delivery is delivered or dead. The receiver has a request before the
   * worker records its answer, so a page read right after `receiver.waitFor` can lag by one update.
   */
  const settledDeliveries = async (tenant: TenantCredentials, query = '') => {
    for (let i = 0; ; i++) {
      const page = await deliveries(tenant, query);
      if (page.items.every((d: Delivery) => d.status === 'delivered' || d.status === 'dead') || i === 250) return page;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('delivers a purchase as signed events the receiver verifies, the secret shown once', async () => {
    const { tenant, c, gems, sub } = await given(['store.purchase_completed', 'resource.debited']);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = await adminApi(t, tenant).get('/v1/admin/webhooks/subscriptions').expect(200);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: sub.id, url: receiver.url, active: true })]);
    expect(JSON.stringify(listed.body)).not.toContain(sub.secret);

    const coins = await givenResourceType(t, tenant, c.id, { slug: 'coins', name: 'Coins' });
    const l = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'resource',
      resourceTypeId: coins.id,
      quantity: 5,
      price: [{ resourceTypeId: gems.id, amount: 10 }],
    });
    const u = await fundedUser(tenant, gems.id, 30);
    const bought = await purchase(t, u, l.id).expect(201);

    await receiver.waitFor(() => ofTenant(tenant).length === 2);
    const got = ofTenant(tenant);
    expect(got.map((d) => d.json.type).sort()).toEqual(['resource.debited', 'store.purchase_completed']);
    const sale = got.find((d) => d.json.type === 'store.purchase_completed')!;
    expect(sale.json).toMatchObject({
      version: 1,
      tenantId: tenant.id,
      data: {
        purchaseId: bought.body.id,
        listingId: l.id,
        userId: u.userId,
        kind: 'resource',
        quantity: 5,
        price: [{ resourceTypeId: gems.id, amount: 10 }],
      },
    });
    for (const d of got) {
      expect(d.headers['x-cgs-event-id']).toBe(d.json.id);
      expect(d.headers['x-cgs-event-type']).toBe(d.json.type);
      const now = Math.floor(Date.now() / 1000);
      expect(
        verifyWebhookSignature(sub.secret, d.headers['x-cgs-signature'] as string, d.headers['x-cgs-timestamp'] as string, d.body, now),
      ).toBe(true);
      // The documented 20-line check (docs/integrations.md shows this very file).
      expect(verifyCgsWebhook(sub.secret, d.headers as Record<string, string>, d.body)).toBe(true);
      expect(verifyCgsWebhook(sub.secret, d.headers as Record<string, string>, d.body.replace('"version":1', '"version":2'))).toBe(false);
      expect(verifyCgsWebhook('whsec_other', d.headers as Record<string, string>, d.body)).toBe(false);
    }
    const page = await settledDeliveries(tenant);
    expect(page.items).toHaveLength(2);
    expect(page.items.map((d: Delivery) => [d.status, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('retries a failing receiver: once per attempt, the last attempt recorded as delivered', async () => {
    const { tenant, c, sub } = await given(['community.joined']);
    let failures = 0;
    receiver.respond = (d) => (d.json.tenantId === tenant.id && failures++ < 3 ? 500 : 200);
    const u = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);

    await receiver.waitFor(() => ofTenant(tenant).length === 4);
    await new Promise((r) => setTimeout(r, 150)); // no fifth copy comes
    const got = ofTenant(tenant);
    expect(got).toHaveLength(4);
    expect(new Set(got.map((d) => d.json.id)).size).toBe(1);
    expect(got.map((d) => d.headers['x-cgs-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(got[0].json.data).toEqual({ communityId: c.id, userId: u.userId });
    const [delivery] = (await settledDeliveries(tenant, `?subscriptionId=${sub.id}`)).items;
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 4,
      lastStatusCode: 200,
      lastError: null,
      eventType: 'community.joined',
    });
    expect(delivery.history.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500, 200]);
  });

  it('dead-letters after the retry window, and an operator redelivers the failed ones of a window', async () => {
    const { tenant, c, sub } = await given(['community.joined']);
    receiver.respond = (d) => (d.json.tenantId === tenant.id ? 503 : 200);
    const from = new Date(t.clock.now().getTime() - 1000).toISOString();
    for (const u of [await givenUser(t, tenant), await givenUser(t, tenant)])
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
    await receiver.waitFor(() => ofTenant(tenant).length === 12);
    const dead = async () => (await deliveries(tenant, '?status=dead')).items;
    for (let i = 0; i < 100 && (await dead()).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    const [d1] = await dead();
    expect(d1).toMatchObject({ status: 'dead', attempts: 6, lastStatusCode: 503 });
    expect(d1.history).toHaveLength(6);

    receiver.respond = () => 200;
    const to = new Date(t.clock.now().getTime() + 1000).toISOString();
    const again = await adminApi(t, tenant).post(`/v1/admin/webhooks/subscriptions/${sub.id}/redeliver`, { from, to }).expect(200);
    expect(again.body).toEqual({ requeued: 2 });
    await receiver.waitFor(() => ofTenant(tenant).length === 14);
    const all = (await settledDeliveries(tenant)).items;
    expect(all.map((d: Delivery) => d.status)).toEqual(['delivered', 'delivered']);
    expect(all[0].history).toHaveLength(7);

    // One delivery again (delivered or not); an unknown id is a 404.
    await adminApi(t, tenant).post(`/v1/admin/webhooks/deliveries/${all[0].id}/redeliver`, {}).expect(200);
    await receiver.waitFor(() => ofTenant(tenant).length === 15);
    expect((await adminApi(t, tenant).post(`/v1/admin/webhooks/deliveries/${sub.id}/redeliver`, {})).body).toMatchObject({
      code: 70002,
      error: 'delivery_not_found',
    });
  });

  it('emits nothing for a rolled-back transaction: a purchase failing on supply', async () => {
    const { tenant, c, gems } = await given(['*']);
    const item = await givenItem(t, tenant, c.id, { supply: 1 });
    const l = await givenListing(t, tenant, {
      communityId: c.id,
      kind: 'item',
      itemId: item.id,
      quantity: 1,
      price: [{ resourceTypeId: gems.id, amount: 10 }],
    });
    const [a, b] = [await fundedUser(tenant, gems.id, 10), await fundedUser(tenant, gems.id, 10)];
    await purchase(t, a, l.id).expect(201);
    expect((await purchase(t, b, l.id).expect(409)).body.error).toBe('listing_sold_out');
    await t.app.get(WebhookWorker).runOnce();

    const rows: { type: string; user_id: string }[] = await t.dataSource.query(
      "SELECT type, payload->>'userId' AS user_id FROM outbox_events WHERE tenant_id = $1 AND type <> 'user.registered' AND type <> 'user.logged_in'",
      [tenant.id],
    );
    const ofB = rows.filter((r) => r.user_id === b.userId).map((r) => r.type);
    expect(ofB).toEqual(['resource.credited']); // the grant that funded b, nothing of the failed purchase
    const ofA = rows
      .filter((r) => r.user_id === a.userId)
      .map((r) => r.type)
      .sort();
    expect(ofA).toEqual(['inventory.item_granted', 'resource.credited', 'resource.debited', 'store.purchase_completed']);
    await receiver.waitFor(() => ofTenant(tenant).filter((d) => d.json.data.userId === a.userId).length === 6);
    const toB = ofTenant(tenant).filter((d) => d.json.data.userId === b.userId);
    expect(toB.map((d) => d.json.type).sort()).toEqual(['resource.credited', 'user.logged_in', 'user.registered']);
  });

  it('signs with both secrets during a rotation overlap, then with the new one only', async () => {
    const { tenant, c, sub } = await given(['community.joined']);
    const rotated = await adminApi(t, tenant)
      .post(`/v1/admin/webhooks/subscriptions/${sub.id}/rotate-secret`, { overlapSeconds: 3600 })
      .expect(200);
    expect(rotated.body.secret).not.toBe(sub.secret);
    const join = async () => {
      const u = await givenUser(t, tenant);
      const joined = await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth);
      expect([joined.status, joined.body]).toEqual([201, expect.anything()]);
    };
    await join();
    await receiver.waitFor(() => ofTenant(tenant).length === 1);
    const first = ofTenant(tenant)[0];
    expect((first.headers['x-cgs-signature'] as string).split(',')).toHaveLength(2);
    for (const secret of [sub.secret, rotated.body.secret])
      expect(verifyCgsWebhook(secret, first.headers as Record<string, string>, first.body)).toBe(true);

    t.clock.advance(3601_000);
    await join();
    await receiver.waitFor(() => ofTenant(tenant).length === 2);
    const second = ofTenant(tenant)[1];
    // The receiver's clock is the real one: check the signature itself with the service's timestamp.
    const ts = Number(second.headers['x-cgs-timestamp']);
    expect(verifyWebhookSignature(rotated.body.secret, second.headers['x-cgs-signature'] as string, String(ts), second.body, ts)).toBe(
      true,
    );
    expect(verifyWebhookSignature(sub.secret, second.headers['x-cgs-signature'] as string, String(ts), second.body, ts)).toBe(false);
  });

  /**
   * Holds each encryption of a webhook secret until `n` are under way (or a second has passed):
   * the requests that make them have all read what they read before it, and write after it.
   */
  function overlapEncryptions(n: number) {
    const secrets = t.app.get(WebhookSecrets);
    const encrypt = secrets.encrypt.bind(secrets);
    const waiting: (() => void)[] = [];
    return jest.spyOn(secrets, 'encrypt').mockImplementation(async (id, secret) => {
      await new Promise<void>((go) => {
        waiting.push(go);
        if (waiting.length === n) waiting.forEach((release) => release());
        else setTimeout(go, 1000);
      });
      return encrypt(id, secret);
    });
  }

  it('applies one of two rotations made at once and refuses the other (409): the secret answered is in effect', async () => {
    const { tenant, c, sub } = await given(['community.joined']);
    const rotate = () => adminApi(t, tenant).post(`/v1/admin/webhooks/subscriptions/${sub.id}/rotate-secret`, {});
    const spy = overlapEncryptions(2);
    const answers = await Promise.all([rotate(), rotate()]).finally(() => spy.mockRestore());
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const applied = answers.find((a) => a.status === 200)!;
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({
      code: 70004,
      message: 'secret_rotated_concurrently',
      error: 'secret_rotated_concurrently',
    });

    const u = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
    await receiver.waitFor(() => ofTenant(tenant).length === 1);
    const [d] = ofTenant(tenant);
    const ts = Number(d.headers['x-cgs-timestamp']);
    // Signed with the answered secret, and with the one it replaced during the overlap.
    for (const secret of [applied.body.secret, sub.secret])
      expect(verifyWebhookSignature(secret, d.headers['x-cgs-signature'] as string, String(ts), d.body, ts)).toBe(true);
  });

  it('holds the cap of 50 subscriptions against creations at the same time', async () => {
    const tenant = await t.givenTenant();
    const api = adminApi(t, tenant);
    const create = () =>
      api.post('/v1/admin/webhooks/subscriptions', { url: receiver.url, eventTypes: ['community.joined'], active: false });
    for (let i = 0; i < 45; i++) expect((await create()).status).toBe(201);
    const spy = overlapEncryptions(10);
    const answers = await Promise.all(Array.from({ length: 10 }, create)).finally(() => spy.mockRestore());
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error)).toEqual(Array(5).fill('too_many_subscriptions'));
    expect((await api.get('/v1/admin/webhooks/subscriptions').expect(200)).body.items).toHaveLength(50);
  });

  it("pauses a deactivated subscription's queued deliveries: the workers' claim does not read them, reactivation sends them", async () => {
    const { tenant, sub } = await given(['community.joined']);
    const api = adminApi(t, tenant);
    // A backlog written while it was active, due in an hour (the worker leaves it alone until then):
    // 1,000 waiting for a retry and 600 dead.
    const now = t.clock.now();
    await t.dataSource.query(
      `WITH e AS (
         INSERT INTO outbox_events (id, tenant_id, type, version, occurred_at, payload)
         SELECT gen_random_uuid(), $1, 'community.joined', 1, $3, jsonb_build_object('n', i) FROM generate_series(1, 1600) i
         RETURNING id, (payload->>'n')::int AS n)
       INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT $1, $2, e.id, CASE WHEN e.n <= 1000 THEN 'pending' ELSE 'dead' END, 3, $4, $3, $3 FROM e`,
      [tenant.id, sub.id, now, new Date(now.getTime() + HOUR)],
    );
    await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, { active: false }).expect(200);
    // The dead ones redelivered while it is inactive wait as well.
    const window = { from: new Date(now.getTime() - 1000).toISOString(), to: new Date(now.getTime() + 1000).toISOString() };
    expect((await api.post(`/v1/admin/webhooks/subscriptions/${sub.id}/redeliver`, window).expect(200)).body).toEqual({ requeued: 1600 });
    t.clock.advance(2 * HOUR);
    await t.dataSource.query('ANALYZE webhook_deliveries');

    // The rows one claim reads (in a transaction rolled back: nothing stays claimed), planned as on
    // a table of production size, where reading all of it is never the cheaper plan. The counters
    // can hold earlier transactions' reads not yet reported: the claim's are the difference.
    const qr = t.dataSource.createQueryRunner();
    await qr.startTransaction();
    try {
      await qr.query('SET LOCAL enable_seqscan = off');
      const rowsRead = async () =>
        Number(
          (
            await qr.query(
              "SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables WHERE relname = 'webhook_deliveries'",
            )
          )[0].n,
        );
      const before = await rowsRead();
      const at = t.clock.now();
      await t.app.get(WebhooksRepository).claimDue(at, new Date(at.getTime() + 60_000), 100, qr.manager);
      expect((await rowsRead()) - before).toBeLessThan(300);
    } finally {
      await qr.rollbackTransaction();
      await qr.release();
    }
    await t.app.get(WebhookWorker).runOnce();
    expect(ofTenant(tenant)).toHaveLength(0);

    await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, { active: true }).expect(200);
    await receiver.waitFor(() => ofTenant(tenant).length === 1600);
    expect(new Set(ofTenant(tenant).map((d) => d.json.data.n)).size).toBe(1600);
    t.clock.reset();
  });

  it('manages subscriptions: validation, unknown types, update, inactive, delete', async () => {
    const { tenant, c, sub } = await given(['community.joined']);
    const api = adminApi(t, tenant);
    expect((await api.post('/v1/admin/webhooks/subscriptions', { url: receiver.url, eventTypes: ['nope.nope'] })).body).toMatchObject({
      code: 10002,
      error: 'unknown_event_type',
    });
    expect((await api.post('/v1/admin/webhooks/subscriptions', { url: 'ftp://example.com/x', eventTypes: ['*'] })).status).toBe(400);
    expect((await api.post('/v1/admin/webhooks/subscriptions', { url: 'http://user:pw@127.0.0.1/x', eventTypes: ['*'] })).body.error).toBe(
      'webhook_url_refused',
    );
    expect((await api.post('/v1/admin/webhooks/subscriptions', { url: receiver.url, eventTypes: ['*'], __proto__x: 1 })).status).toBe(400);
    const types = await api.get('/v1/admin/webhooks/event-types').expect(200);
    expect(types.body.items.map((i: { type: string }) => i.type)).toEqual(PUBLIC_EVENT_TYPES);

    // null is no value for these fields: a 400, nothing changed.
    for (const body of [{ active: null }, { eventTypes: null }, { url: null }])
      expect((await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, body)).body).toMatchObject({ message: 'generic_client_error' });
    const longUrl = `${receiver.url}/${'é'.repeat(2000)}`;
    expect((await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, { url: longUrl })).body.error).toBe('webhook_url_refused');
    expect((await api.get(`/v1/admin/webhooks/subscriptions/${sub.id}`).expect(200)).body).toMatchObject({
      active: true,
      url: receiver.url,
    });

    await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, { active: false }).expect(200);
    const u = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
    await t.app.get(WebhookWorker).runOnce();
    expect(ofTenant(tenant)).toHaveLength(0);
    // Inactive: its events are not queued at all.
    expect((await deliveries(tenant)).items).toEqual([]);
    await api.patch(`/v1/admin/webhooks/subscriptions/${sub.id}`, { active: true }).expect(200);
    const v = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', v.auth).expect(201);
    await receiver.waitFor(() => ofTenant(tenant).length === 1);
    expect(ofTenant(tenant)[0].json.data.userId).toBe(v.userId);

    await t.http().delete(`/v1/admin/webhooks/subscriptions/${sub.id}`).set('X-Api-Key', tenant.apiKey).expect(204);
    await api.get(`/v1/admin/webhooks/subscriptions/${sub.id}`).expect(404);
    expect((await deliveries(tenant)).total).toBe(0);
    // Another tenant's key sees nothing of it.
    const other = await t.givenTenant();
    expect((await adminApi(t, other).get('/v1/admin/webhooks/subscriptions').expect(200)).body.items).toEqual([]);
  });

  it('emits payloads that validate against the published JSON Schemas', async () => {
    const { ajv, envelope, payload } = eventValidators();

    // A flow that publishes most types: sign-up, join, grants, purchases of an item and a prize,
    // a social link, a quest event with a quest, its completion, allocation and a claim.
    const { tenant, c, gems } = await given(['*']);
    const api = admin(t, tenant);
    const member = await givenMember(t, tenant, c);
    await grant(t, tenant, member.userId, gems.id, 100).expect(201);
    const item = await givenItem(t, tenant, c.id, { supply: 5 });
    const prize = await givenPrize(t, tenant, { totalSupply: 3 });
    for (const fields of [
      { kind: 'item', itemId: item.id },
      { kind: 'prize', prizeId: prize.id },
    ]) {
      const l = await givenListing(t, tenant, {
        communityId: c.id,
        quantity: 1,
        price: [{ resourceTypeId: gems.id, amount: 10 }],
        ...fields,
      });
      await purchase(t, member, l.id).expect(201);
    }
    await t
      .http()
      .post('/v1/user/socials')
      .set('Authorization', member.auth)
      .send({ accountType: 'discord', subjectId: `s-${tenant.id}`, public: true })
      .expect(201);

    const event = await givenEvent(t, tenant, c, { minScore: 1 });
    await api
      .post(`/v1/admin/quest-events/${event.id}/rewards`, {
        name: 'XP',
        kind: 'resource',
        resourceTypeId: gems.id,
        amount: 5,
        tickets: 1,
        ticketCost: 1,
      })
      .expect(201);
    const call = eventApi(t, event);
    t.clock.advance(1 * HOUR);
    await call(member, 'post', '/participant/register').expect(201);
    t.clock.advance(1 * HOUR);
    const quest = await givenEventQuest(t, tenant, event, 10);
    expect((await api.post(`/v1/admin/quests/${quest.id}/completions`, { userId: member.userId })).body).toMatchObject({ created: true });
    t.clock.advance(8 * HOUR);
    await t.app.get(EventCompletionService).runOnce();
    const [allocation] = (await call(member, 'get', '/reward/allocations').expect(200)).body as { id: string }[];
    await call(member, 'post', `/reward/allocations/claim/${allocation.id}`, {}).expect(200);

    const rows: { id: string; type: string; version: number; tenant_id: string; occurred_at: Date; payload: Record<string, unknown> }[] =
      await t.dataSource.query('SELECT * FROM outbox_events WHERE tenant_id = $1', [tenant.id]);
    // What the receiver got is what was written. Waited for on the advanced clock: the worker
    // claims what is due by it, so the last events (due ten hours ahead) would wait that long
    // after a reset if a slow machine had not sent them yet.
    await receiver.waitFor(() => ofTenant(tenant).length === rows.length).finally(() => t.clock.reset());
    const problems: string[] = [];
    for (const r of rows) {
      if (!isPublicEventType(r.type)) {
        problems.push(`unknown type ${r.type}`);
        continue;
      }
      const env = {
        id: r.id,
        type: r.type,
        version: r.version,
        tenantId: r.tenant_id,
        occurredAt: r.occurred_at.toISOString(),
        data: r.payload,
      };
      if (!envelope(env)) problems.push(`${r.type} envelope: ${ajv.errorsText(envelope.errors)}`);
      if (!payload[r.type](r.payload))
        problems.push(`${r.type}: ${ajv.errorsText(payload[r.type].errors)} in ${JSON.stringify(r.payload)}`);
    }
    expect(problems).toEqual([]);
    const seen = new Set(rows.map((r) => r.type));
    // avatar.minted needs a blockchain (test/e2e/inventory-mint.e2e-spec.ts runs one), the season
    // events a season's close (test/e2e/seasons.e2e-spec.ts), the quest tasks' events players'
    // claims and reviews (test/e2e/quest-play.e2e-spec.ts): their schemas are checked there.
    expect(PUBLIC_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([
      'avatar.minted',
      'quest.submission_reviewed',
      'quest.task_verified',
      'season.closed',
      'season.created',
      'season.rewarded',
    ]);
    for (const d of ofTenant(tenant)) expect(envelope(d.json)).toBe(true);
  });

  it('documents the verification example verbatim in docs/integrations.md', () => {
    const example = readFileSync('docs/examples/verify-webhook.ts', 'utf8').trim();
    expect(readFileSync('docs/integrations.md', 'utf8')).toContain(example);
    expect(example.split('\n').length).toBeLessThanOrEqual(24);
  });
});
