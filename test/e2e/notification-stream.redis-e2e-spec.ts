import { NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import { NOTIFICATION_BUS_NAME, NotificationBus } from '../../src/notifications/stream/notification-bus.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { listening, SseClient } from '../helpers/sse.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The notification stream's wake-ups over Redis pub/sub (REDIS_URL): two instances on one
 * database, a stream on one, writes through the other; Redis going away and coming back.
 */
describe('notification stream across instances over Redis pub/sub', () => {
  let server: RedisServer;
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    server = await startRedisServer();
    const env = { REDIS_URL: server.url, MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' };
    a = await createTestApp(env);
    b = await createTestApp({ ...env, DATABASE_URL: a.config.DATABASE_URL! });
    tenant = await a.givenTenant();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await server?.close();
  });

  const notify = (u: TestUser, title: string) =>
    a.dataSource.transaction((em) =>
      a.app.get(NotificationsService).notify(em, { tenantId: tenant.id, userId: u.userId, type: NotificationType.System, title }),
    );
  const titles = (c: SseClient) => c.notifications().map((n) => n.title);

  it('carries the wake-up through Redis, not PostgreSQL', async () => {
    expect(a.app.get(NotificationBus).kind).toBe('redis');
    const u = await givenUser(a, tenant);
    const c = await SseClient.connect(`${await listening(b)}/v1/user/notifications/stream`, { Authorization: u.auth });
    try {
      await c.next((e) => e.event === 'ready');
      await notify(u, 'through redis');
      await c.next((e) => e.event === 'notification');
      expect(titles(c)).toEqual(['through redis']);
      // No LISTEN connection of the notification bus on this test's database (other suites share the server).
      const [{ n }] = await a.dataSource.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [`cgs:${NOTIFICATION_BUS_NAME}`],
      );
      expect(n).toBe(0);
    } finally {
      c.close();
    }
  });

  it('delivers what was written while Redis was down once it is back', async () => {
    const u = await givenUser(a, tenant);
    const c = await SseClient.connect(`${await listening(b)}/v1/user/notifications/stream`, { Authorization: u.auth });
    try {
      await c.next((e) => e.event === 'ready');
      await server.kill();
      await notify(u, 'during the outage');
      await new Promise((r) => setTimeout(r, 300));
      await server.start();
      await c.next((e) => e.event === 'notification', 0, 15_000);
      expect(titles(c)).toEqual(['during the outage']);
      // And live again.
      await notify(u, 'after');
      await c.next((e) => e.event === 'notification' && e.data.includes('"after"'), 0, 15_000);
      expect(titles(c)).toEqual(['during the outage', 'after']);
    } finally {
      c.close();
    }
  }, 60_000);

  it('opens a stream while Redis is down, at once, and brings it what another instance writes meanwhile', async () => {
    const u = await givenUser(a, tenant);
    await server.kill();
    try {
      const started = Date.now();
      const opened = await SseClient.open(`${await listening(b)}/v1/user/notifications/stream`, { Authorization: u.auth });
      expect(opened.status).toBe(200);
      const c = opened.client!;
      try {
        await c.next((e) => e.event === 'ready');
        // Not the 5 s wait for the channel and a 503: the stream opens within Redis's command timeout.
        expect(Date.now() - started).toBeLessThan(3_000);
        await notify(u, 'written while Redis is down');
        // b is not told (no Redis); its streams read again every REDIS_DOWN_POLL_MS while Redis is away.
        await c.next((e) => e.event === 'notification', 0, 15_000);
        expect(titles(c)).toEqual(['written while Redis is down']);
      } finally {
        c.close();
      }
    } finally {
      await server.start();
    }
  }, 60_000);
});
