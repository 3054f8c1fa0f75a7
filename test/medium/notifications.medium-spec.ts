import { NotificationsInboxService } from '../../src/notifications/notifications-inbox.service.js';
import { NotificationsModule } from '../../src/notifications/notifications.module.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import { NOTIFICATION_TITLE_MAX, NotificationType } from '../../src/notifications/notification-types.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenTenant, givenUser } from './fixtures.js';

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
});
