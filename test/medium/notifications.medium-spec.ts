import { NotificationWriteOrder1795740000000 } from '../../migrations/1795740000000-NotificationWriteOrder.js';
import { NotificationsInboxService } from '../../src/notifications/notifications-inbox.service.js';
import { NotificationsModule } from '../../src/notifications/notifications.module.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import { NOTIFICATION_TITLE_MAX, NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationStreamRepository } from '../../src/notifications/stream/notification-stream.repository.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenTenant, givenUser, inRolledBackTransaction } from './fixtures.js';

/** NotificationsService and the inbox on the real database: what is written, and what a user's page holds. */
describe('NotificationsService, NotificationsInboxService (medium: NotificationsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let notifications: NotificationsService;
  let inbox: NotificationsInboxService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [NotificationsModule, TenantsModule] });
    notifications = t.get(NotificationsService);
    inbox = t.get(NotificationsInboxService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('writes in the caller transaction: a long title is cut, missing data is {}, bad input throws and rolls back', async () => {
    const user = await givenUser(t, tenantId);
    const m = t.dataSource.manager;
    const long = await notifications.notify(m, { tenantId, userId: user, type: NotificationType.System, title: 'x'.repeat(300) });
    expect(long.title).toHaveLength(NOTIFICATION_TITLE_MAX);
    expect(long.title.endsWith('…')).toBe(true);
    expect(long).toMatchObject({ data: {}, communityId: null, readAt: null });
    const bad = [
      { type: 'nonsense' as NotificationType, title: 'x' },
      { type: NotificationType.System, title: 'x', data: [] as unknown as Record<string, unknown> },
      { type: NotificationType.System, title: 'x', data: { blob: 'y'.repeat(5000) } },
    ];
    for (const input of bad) {
      await expect(
        t.dataSource.transaction(async (em) => {
          await notifications.notify(em, { tenantId, userId: user, type: NotificationType.System, title: 'kept?' });
          await notifications.notify(em, { tenantId, userId: user, ...input });
        }),
      ).rejects.toThrow(/notification/);
    }
    const [{ n }] = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [user]);
    expect(n).toBe(1);
  });

  it("a user's page holds the community's and the account-wide notifications, newest first, with the unread count; mark all read", async () => {
    const [community, other] = [await givenCommunity(t, tenantId), await givenCommunity(t, tenantId)];
    const user = await givenUser(t, tenantId);
    const m = t.dataSource.manager;
    const note = (title: string, communityId: string | null) =>
      notifications.notify(m, { tenantId, userId: user, communityId, type: NotificationType.System, title, data: { title } });
    await note('account', null);
    t.clock.advance(1000);
    await note('here', community);
    t.clock.advance(1000);
    await note('elsewhere', other);
    const page = await inbox.list(tenantId, user, { containerId: community });
    expect(page).toMatchObject({
      total: 2,
      unreadCount: 2,
      items: [
        { title: 'here', read: false },
        { title: 'account', readAt: null },
      ],
    });
    await inbox.markAllRead(tenantId, user);
    const after = await inbox.list(tenantId, user, { containerId: other, page: 1, limit: 1 });
    expect(after).toMatchObject({ total: 2, unreadCount: 0, items: [{ title: 'elsewhere', read: true }] });
    t.clock.reset();
  });

  it('notifications of one change, written at one time, are listed and streamed in the order written', async () => {
    const community = await givenCommunity(t, tenantId);
    const user = await givenUser(t, tenantId);
    const stream = t.get(NotificationStreamRepository);
    const start = await stream.snapshot();
    const titles = ['1st', '2nd', '3rd', '4th', '5th', '6th'];
    const input = (title: string) => ({ tenantId, userId: user, communityId: community, type: NotificationType.System, title });
    // One transaction at one time of the clock: one by one, then in one statement.
    await t.dataSource.transaction(async (em) => {
      for (const title of titles.slice(0, 3)) await notifications.notify(em, input(title));
      await notifications.notifyMany(em, titles.slice(3).map(input));
    });
    const page = await inbox.list(tenantId, user, { containerId: community });
    expect(page.items.map((n) => n.title)).toEqual([...titles].reverse());
    expect((await stream.since(tenantId, user, start, 10)).rows.map((n) => n.title)).toEqual(titles);
  });

  it('migration NotificationWriteOrder: down drops the column and its sequence; up adds them back, numbering new rows only', async () => {
    // Whether the column and its sequence exist, and whether every row has a number (asked only while the column exists).
    const state = async (run: (sql: string) => Promise<{ seq: boolean; sequence: boolean; numbered: boolean | null }[]>) =>
      (
        await run(
          `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'notifications' AND column_name = 'seq') AS seq,
                  to_regclass('notifications_seq_seq') IS NOT NULL AS sequence,
                  (SELECT bool_and(seq IS NOT NULL) FROM notifications) AS numbered`,
        )
      )[0];
    const user = await givenUser(t, tenantId);
    await notifications.notify(t.dataSource.manager, { tenantId, userId: user, type: NotificationType.System, title: 'numbered' });
    expect(await state((sql) => t.dataSource.query(sql))).toEqual({ seq: true, sequence: true, numbered: true });

    await inRolledBackTransaction(t.dataSource, async (qr) => {
      const migration = new NotificationWriteOrder1795740000000();
      await migration.down(qr);
      const [{ seq, sequence }] = await qr.query(
        `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'notifications' AND column_name = 'seq') AS seq,
                to_regclass('notifications_seq_seq') IS NOT NULL AS sequence`,
      );
      expect({ seq, sequence }).toEqual({ seq: false, sequence: false });
      await migration.up(qr);
      // Rows from before have no number; rows written after take one.
      expect(await state((sql) => qr.query(sql))).toEqual({ seq: true, sequence: true, numbered: false });
      await qr.query(`INSERT INTO notifications (tenant_id, user_id, type, title, created_at) VALUES ($1, $2, 'system', 'after', now())`, [
        tenantId,
        user,
      ]);
      const [{ n }] = await qr.query(`SELECT count(*)::int AS n FROM notifications WHERE title = 'after' AND seq IS NOT NULL`);
      expect(n).toBe(1);
    });
  });
});
