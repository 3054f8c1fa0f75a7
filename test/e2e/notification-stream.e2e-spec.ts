import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationsService, type NotifyInput } from '../../src/notifications/notifications.service.js';
import { NotificationBus, type NotificationTransport } from '../../src/notifications/stream/notification-bus.js';
import { NotificationStreamsService } from '../../src/notifications/stream/notification-streams.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { listening, SseClient } from '../helpers/sse.js';
import { createTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The live notification stream (SSE) through the real app on a real server socket: delivery at
 * the commit, exact resume from Last-Event-ID (including transactions that commit out of order),
 * heartbeats, credentials (bearer, single-use tickets), limits, teardown, and two instances.
 */
describe('notification stream (SSE)', () => {
  const env = {
    NOTIFICATION_STREAM_HEARTBEAT_MS: '300',
    NOTIFICATION_STREAMS_PER_USER: '3',
    MINT_WORKER_ENABLED: 'false',
    QUEST_EVENT_WORKER_ENABLED: 'false',
  };
  const t = useTestApp(env, { resetClock: true });
  let base: string;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    base = await listening(t);
    tenant = await t.givenTenant();
  });

  const url = (query = '') => `${base}/v1/user/notifications/stream${query}`;
  const bearer = (u: TestUser, extra: Record<string, string> = {}) => ({ Authorization: u.auth, ...extra });
  const input = (u: TestUser, title: string): NotifyInput => ({
    tenantId: tenant.id,
    userId: u.userId,
    type: NotificationType.System,
    title,
    data: { n: title },
  });
  const notifyIn = (app: TestApp, em: EntityManager, u: TestUser, title: string) =>
    app.app.get(NotificationsService).notify(em, input(u, title));
  const notify = (u: TestUser, ...titles: string[]) =>
    t.dataSource.transaction(async (em) => {
      for (const title of titles) await notifyIn(t, em, u, title);
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const titles = (c: SseClient) => c.notifications().map((n) => n.title);
  const ready = (c: SseClient) => c.next((e) => e.event === 'ready');

  it('sends a notification the moment its transaction commits, in the shape of the list route, and nothing of a rollback', async () => {
    const u = await givenUser(t, tenant);
    const c = await SseClient.connect(url(), bearer(u));
    try {
      expect(JSON.parse((await ready(c)).data)).toEqual({ replayed: 0 });
      // Open transaction: nothing yet. Rolled back: nothing ever.
      const qr = t.dataSource.createQueryRunner();
      await qr.startTransaction();
      const written = await notifyIn(t, qr.manager, u, 'bought');
      await expect(
        t.dataSource.transaction(async (em) => {
          await notifyIn(t, em, u, 'rolled back');
          throw new Error('supply ran out');
        }),
      ).rejects.toThrow('supply ran out');
      await sleep(300);
      expect(c.notifications()).toEqual([]);
      const committed = Date.now();
      await qr.commitTransaction();
      await qr.release();
      const e = await c.next((x) => x.event === 'notification');
      const latency = Date.now() - committed;
      expect(latency).toBeLessThan(1000);
      expect(JSON.parse(e.data)).toEqual({
        id: written.id,
        type: 'system',
        title: 'bought',
        data: { n: 'bought' },
        communityId: null,
        read: false,
        readAt: null,
        createdAt: written.createdAt.toISOString(),
      });
      expect(e.id).toMatch(/^\d+:\d+:[\d,]*$/);
      await sleep(200);
      expect(titles(c)).toEqual(['bought']);
    } finally {
      c.close();
    }
  });

  it('resumes from Last-Event-ID with exactly the missed notifications, oldest first', async () => {
    const u = await givenUser(t, tenant);
    const c1 = await SseClient.connect(url(), bearer(u));
    await ready(c1);
    await notify(u, 'seen');
    await c1.next((e) => e.event === 'notification');
    const last = c1.lastEventId;
    c1.close();

    await notify(u, 'missed 1');
    await notify(u, 'missed 2', 'missed 3');
    const c2 = await SseClient.connect(url(), bearer(u, { 'Last-Event-ID': last }));
    try {
      expect(JSON.parse((await ready(c2)).data)).toEqual({ replayed: 3 });
      expect(titles(c2)).toEqual(['missed 1', 'missed 2', 'missed 3']);
      // Live again after the replay.
      await notify(u, 'live');
      await c2.next((e) => e.event === 'notification' && e.data.includes('"live"'));
      expect(titles(c2)).toEqual(['missed 1', 'missed 2', 'missed 3', 'live']);
    } finally {
      c2.close();
    }
  });

  it('does not skip a transaction that commits after a later one was delivered (cursors are snapshots, not sequence numbers)', async () => {
    const u = await givenUser(t, tenant);
    const c1 = await SseClient.connect(url(), bearer(u));
    await ready(c1);
    // A writes first and commits last.
    const a = t.dataSource.createQueryRunner();
    await a.startTransaction();
    await notifyIn(t, a.manager, u, 'A (slow)');
    await notify(u, 'B (fast)');
    await c1.next((e) => e.event === 'notification');
    expect(titles(c1)).toEqual(['B (fast)']);
    const last = c1.lastEventId;
    c1.close();
    await a.commitTransaction();
    await a.release();

    const c2 = await SseClient.connect(url(), bearer(u, { 'Last-Event-ID': last }));
    try {
      await ready(c2);
      expect(titles(c2)).toEqual(['A (slow)']);
    } finally {
      c2.close();
    }
  });

  it('resumes in the middle of a transaction that wrote several (the id of each event counts what was sent)', async () => {
    const u = await givenUser(t, tenant);
    const c1 = await SseClient.connect(url(), bearer(u));
    let sent: string[];
    let ids: string[];
    try {
      await ready(c1);
      await notify(u, 'one', 'two', 'three');
      await c1.next(() => c1.notifications().length === 3);
      // Rows written in the same millisecond tie on created_at and follow their ids: the stream's
      // order, not necessarily the writing order, is what a resume continues.
      sent = titles(c1);
      expect([...sent].sort()).toEqual(['one', 'three', 'two']);
      ids = c1.events.filter((e) => e.event === 'notification').map((e) => e.id);
    } finally {
      c1.close();
    }
    for (const k of [1, 2]) {
      const c = await SseClient.connect(url(), bearer(u, { 'Last-Event-ID': ids[k - 1] }));
      try {
        await ready(c);
        expect(titles(c)).toEqual(sent.slice(k));
      } finally {
        c.close();
      }
    }
  });

  it('writes a heartbeat comment when nothing else was sent for a while', async () => {
    const u = await givenUser(t, tenant);
    const c = await SseClient.connect(url(), bearer(u));
    try {
      await ready(c);
      const t0 = Date.now();
      while (!c.comments.includes('heartbeat')) {
        if (Date.now() - t0 > 3000) throw new Error('no heartbeat in 3 s (configured: 300 ms)');
        await c.change(100);
      }
      expect(c.ended).toBe(false);
    } finally {
      c.close();
    }
  });

  it('answers refusals with the error body before any event', async () => {
    const u = await givenUser(t, tenant);
    // Streams of earlier tests may still be tearing down: wait for them, then refusals must open none.
    const streams = t.app.get(NotificationStreamsService);
    for (const t0 = Date.now(); streams.open > 0; await sleep(20))
      if (Date.now() - t0 > 3000) throw new Error(`${streams.open} streams of earlier tests were not torn down`);
    const cases: [string, Record<string, string>, number, string, string][] = [
      ['', {}, 401, 'GENERIC_UNAUTHORIZED', 'session_token_missing'],
      ['', { Authorization: 'Bearer not.a.token' }, 401, 'GENERIC_UNAUTHORIZED', 'session_token_invalid'],
      ['?ticket=st_nope', {}, 401, 'GENERIC_UNAUTHORIZED', 'stream_ticket_invalid'],
      [`?ticket=st_${'A'.repeat(43)}`, {}, 401, 'GENERIC_UNAUTHORIZED', 'stream_ticket_invalid'],
      ['', bearer(u, { 'Last-Event-ID': '42' }), 400, 'generic_client_error', 'last_event_id_invalid'],
      ['?lastEventId=1:2:~x~1', bearer(u), 400, 'generic_client_error', 'last_event_id_invalid'],
      // Well formed, but from a database far ahead of this one.
      [
        '',
        bearer(u, { 'Last-Event-ID': '9000000000000000000:9000000000000000000:' }),
        400,
        'generic_client_error',
        'last_event_id_invalid',
      ],
      ['?since=1', bearer(u), 400, 'generic_client_error', 'validation_failed'],
    ];
    for (const [query, headers, status, message, error] of cases) {
      const r = await SseClient.open(url(query), headers);
      expect({ query, headers, status: r.status, body: r.body }).toMatchObject({ status, body: { message, error } });
    }
    expect(streams.open).toBe(0);
  });

  it('opens with a single-use stream ticket (no token in the URL), which expires', async () => {
    const u = await givenUser(t, tenant);
    const issue = async () => {
      const res = await t.http().post('/v1/user/notifications/stream-ticket').set('Authorization', u.auth).expect(201);
      expect(res.body.ticket).toMatch(/^st_[\w-]{43}$/);
      const ttl = new Date(res.body.expiresAt).getTime() - t.clock.now().getTime();
      expect(ttl).toBeGreaterThan(59_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      return res.body.ticket as string;
    };
    const ticket = await issue();
    const c = await SseClient.connect(url(`?ticket=${ticket}`));
    try {
      await ready(c);
      await notify(u, 'by ticket');
      await c.next((e) => e.event === 'notification');
      // Used: refused, on a reconnection too.
      const again = await SseClient.open(url(`?ticket=${ticket}`));
      expect(again).toMatchObject({ status: 401, body: { error: 'stream_ticket_invalid' } });
    } finally {
      c.close();
    }
    const late = await issue();
    t.clock.advance(61_000);
    expect(await SseClient.open(url(`?ticket=${late}`))).toMatchObject({ status: 401, body: { error: 'stream_ticket_invalid' } });
  });

  it('ends the streams of a session when it ends (logout), whether opened by token or ticket', async () => {
    const u = await givenUser(t, tenant);
    const other = await givenUser(t, tenant);
    const ticket = (await t.http().post('/v1/user/notifications/stream-ticket').set('Authorization', u.auth).expect(201)).body
      .ticket as string;
    const byTicket = await SseClient.connect(url(`?ticket=${ticket}`));
    const byToken = await SseClient.connect(url(), bearer(u));
    const unrelated = await SseClient.connect(url(), bearer(other));
    try {
      await Promise.all([ready(byTicket), ready(byToken), ready(unrelated)]);
      await t.http().post('/v1/user/auth/logout').set('Authorization', u.auth).send({ all: true }).expect(204);
      for (const c of [byTicket, byToken]) {
        await c.next((e) => e.event === 'session_ended');
        await c.end();
      }
      expect(unrelated.ended).toBe(false);
      expect((await SseClient.open(url(), bearer(u))).status).toBe(401);
    } finally {
      for (const c of [byTicket, byToken, unrelated]) c.close();
    }
  });

  it('limits the streams per user, and frees a slot when a client goes away', async () => {
    const u = await givenUser(t, tenant);
    const streams = t.app.get(NotificationStreamsService);
    const before = streams.open;
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await SseClient.connect(url(), bearer(u)));
    await Promise.all(open.map(ready));
    expect(streams.open).toBe(before + 3);
    expect(await SseClient.open(url(), bearer(u))).toMatchObject({ status: 429, body: { error: 'stream_limit_reached' } });
    open[0].close();
    const t0 = Date.now();
    while (streams.open !== before + 2) {
      if (Date.now() - t0 > 3000) throw new Error('the closed stream was not torn down');
      await sleep(20);
    }
    const again = await SseClient.connect(url(), bearer(u));
    await ready(again);
    for (const c of [...open, again]) c.close();
  });

  /** A new user's stream, open and ready on a second instance of the same database. */
  async function onSecondInstance(run: (c: SseClient, u: TestUser) => Promise<void>): Promise<void> {
    const b = await createTestApp({ ...env, DATABASE_URL: t.config.DATABASE_URL! });
    try {
      const onB = await listening(b);
      const u = await givenUser(t, tenant);
      const c = await SseClient.connect(`${onB}/v1/user/notifications/stream`, bearer(u));
      try {
        await ready(c);
        await run(c, u);
      } finally {
        c.close();
      }
    } finally {
      await b.close();
    }
  }

  it('delivers what one instance writes to a stream on another instance', async () => {
    await onSecondInstance(async (c, u) => {
      const committed = Date.now();
      await notify(u, 'written on A');
      await c.next((e) => e.event === 'notification');
      expect(Date.now() - committed).toBeLessThan(2000);
      expect(titles(c)).toEqual(['written on A']);
    });
  });
  it("sends again a wake-up that failed to go out, so another instance's stream still gets the notification", async () => {
    await onSecondInstance(async (c, u) => {
      // This instance's channel (the one its wake-ups go out on) fails once, as when its connection drops.
      const bus: unknown = t.app.get(NotificationBus);
      const transport = (bus as { connect(): NotificationTransport }).connect();
      const publish = jest.spyOn(transport, 'publish').mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
      try {
        await notify(u, 'sent on the second try');
        await c.next((e) => e.event === 'notification', 0, 3000);
        expect(titles(c)).toEqual(['sent on the second try']);
        expect(publish).toHaveBeenCalledTimes(2);
      } finally {
        publish.mockRestore();
      }
    });
  });
});
