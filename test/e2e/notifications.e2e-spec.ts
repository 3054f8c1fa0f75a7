import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity } from '../helpers/communities.js';
import { givenEvent, givenMembers, HOUR } from '../helpers/quests.js';
import { givenCommunityRow } from '../helpers/user-space.js';
import { NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationsService, type NotifyInput } from '../../src/notifications/notifications.service.js';
import { ReferralsService } from '../../src/users/referrals.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

describe('notifications', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: TenantCredentials;
  let notifications: NotificationsService;
  let community: { id: string; slug: string };
  let otherCommunity: { id: string; slug: string };

  beforeAll(async () => {
    tenant = await t.givenTenant();
    notifications = t.app.get(NotificationsService);
    community = await givenCommunityRow(t, tenant);
    otherCommunity = await givenCommunityRow(t, tenant);
  });

  const notify = (u: TestUser, input: Partial<NotifyInput> = {}) =>
    t.dataSource.transaction((em) =>
      notifications.notify(em, {
        tenantId: tenant.id,
        userId: u.userId,
        communityId: community.id,
        type: NotificationType.ItemGranted,
        title: 'You got an item',
        data: { itemId: 'i1' },
        ...input,
      }),
    );
  const list = (u: TestUser, query: Record<string, string | number> = { containerId: community.slug }) =>
    t.http().get('/v1/user/notifications').query(query).set('Authorization', u.auth);
  const markRead = (u: TestUser) => t.http().post('/v1/user/notifications/read').set('Authorization', u.auth);

  it("lists the community's and the account-wide notifications, newest first, with the unread count", async () => {
    const u = await givenUser(t, tenant);
    await notify(u, { title: 'oldest', communityId: community.id });
    t.clock.advance(1000);
    await notify(u, { title: 'account-wide', communityId: null, type: NotificationType.System, data: {} });
    t.clock.advance(1000);
    await notify(u, { title: 'elsewhere', communityId: otherCommunity.id });
    t.clock.advance(1000);
    await notify(u, { title: 'newest', communityId: community.id, type: NotificationType.PurchaseCompleted, data: { purchaseId: 'p1' } });

    const res = await list(u).expect(200);
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 3, hasNextPage: false, unreadCount: 3 });
    expect(res.body.items.map((n: { title: string }) => n.title)).toEqual(['newest', 'account-wide', 'oldest']);
    expect(res.body.items[0]).toEqual({
      id: expect.any(String),
      type: 'purchase_completed',
      title: 'newest',
      data: { purchaseId: 'p1' },
      communityId: community.id,
      read: false,
      readAt: null,
      createdAt: expect.any(String),
    });

    // By id as well as by slug; the other community sees its own and the account-wide one.
    const byId = await list(u, { containerId: community.id }).expect(200);
    expect(byId.body.total).toBe(3);
    const other = await list(u, { containerId: otherCommunity.slug }).expect(200);
    expect(other.body.items.map((n: { title: string }) => n.title)).toEqual(['elsewhere', 'account-wide']);
  });

  it('paginates', async () => {
    const u = await givenUser(t, tenant);
    for (let i = 1; i <= 5; i++) {
      await notify(u, { title: `n${i}` });
      t.clock.advance(1000);
    }
    const page2 = await list(u, { containerId: community.slug, page: 2, limit: 2 }).expect(200);
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 5, hasNextPage: true, unreadCount: 5 });
    expect(page2.body.items.map((n: { title: string }) => n.title)).toEqual(['n3', 'n2']);
    const page3 = await list(u, { containerId: community.slug, page: 3, limit: 2 }).expect(200);
    expect(page3.body).toMatchObject({ hasNextPage: false });
    expect(page3.body.items.map((n: { title: string }) => n.title)).toEqual(['n1']);
  });

  it("marks all of the user's notifications read (201, no content), in every community, and only theirs", async () => {
    const u = await givenUser(t, tenant);
    const other = await givenUser(t, tenant);
    await notify(u, { communityId: community.id });
    await notify(u, { communityId: otherCommunity.id });
    await notify(other, {});

    const res = await markRead(u);
    expect(res.status).toBe(201);
    expect(res.text).toBe('');

    const after = await list(u).expect(200);
    expect(after.body.unreadCount).toBe(0);
    expect(after.body.items.every((n: { read: boolean; readAt: string | null }) => n.read && n.readAt !== null)).toBe(true);
    expect((await list(u, { containerId: otherCommunity.slug }).expect(200)).body.unreadCount).toBe(0);
    expect((await list(other).expect(200)).body.unreadCount).toBe(1);

    // Idempotent; new notifications arrive unread.
    await markRead(u).expect(201);
    await notify(u, {});
    expect((await list(u).expect(200)).body.unreadCount).toBe(1);
  });

  it("never shows another user's notifications", async () => {
    const a = await givenUser(t, tenant);
    const b = await givenUser(t, tenant);
    await notify(a, { title: 'for a only' });
    const res = await list(b).expect(200);
    expect(res.body).toMatchObject({ items: [], total: 0, unreadCount: 0 });
  });

  it("writes in the caller's transaction: a rolled-back change leaves no notification", async () => {
    const u = await givenUser(t, tenant);
    await expect(
      t.dataSource.transaction(async (em) => {
        await notifications.notify(em, {
          tenantId: tenant.id,
          userId: u.userId,
          communityId: community.id,
          type: NotificationType.ClaimProcessed,
          title: 'claim',
          data: {},
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const res = await list(u).expect(200);
    expect(res.body).toMatchObject({ total: 0, unreadCount: 0 });
    const rows = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [u.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses an unknown type or oversized data (a programming error that rolls the caller back)', async () => {
    const u = await givenUser(t, tenant);
    await expect(notify(u, { type: 'made_up' as NotificationType })).rejects.toThrow(/unknown notification type/);
    await expect(notify(u, { data: { blob: 'x'.repeat(5000) } })).rejects.toThrow(/exceeds/);
    expect((await list(u).expect(200)).body.total).toBe(0);
  });

  describe('referral joined (producer: ReferralsService.record)', () => {
    it("notifies the referrer once, in the referral's transaction, for sign-up and community referrals", async () => {
      const referrer = await givenUser(t, tenant);
      const joiner = await givenUser(t, tenant);
      const referrals = t.app.get(ReferralsService);
      const record = (communityId?: string) =>
        t.dataSource.transaction((em) =>
          referrals.record(em, { tenantId: tenant.id, referrerId: referrer.userId, referredId: joiner.userId, communityId }),
        );

      expect(await record()).toBe(true);
      expect(await record()).toBe(false); // the first referrer is kept: no second notification
      expect(await record(community.id)).toBe(true);

      const res = await list(referrer).expect(200);
      expect(res.body.total).toBe(2);
      expect(res.body.items.every((n: { type: string }) => n.type === 'referral_joined')).toBe(true);
      expect(res.body.items.map((n: { communityId: string | null }) => n.communityId).sort()).toEqual([community.id, null].sort());
      expect(res.body.items[0]).toMatchObject({
        title: `${joiner.username} joined with your referral`,
        data: { referredUserId: joiner.userId, referredHandle: joiner.username },
      });
      // The referred user is not notified.
      expect((await list(joiner).expect(200)).body.total).toBe(0);
    });

    it('joining a community with a referrer (HTTP) notifies the referrer in that community', async () => {
      const c = await givenCommunity(t, tenant);
      const referrer = await givenUser(t, tenant);
      const joiner = await givenUser(t, tenant);
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', referrer.auth).expect(201);
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=${referrer.username}`).set('Authorization', joiner.auth).expect(201);
      // Joining again changes nothing and notifies nobody.
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=${referrer.username}`).set('Authorization', joiner.auth).expect(200);
      const res = await list(referrer, { containerId: c.slug }).expect(200);
      expect(res.body).toMatchObject({ total: 1, unreadCount: 1 });
      expect(res.body.items[0]).toMatchObject({
        type: 'referral_joined',
        communityId: c.id,
        data: { referredUserId: joiner.userId, referredHandle: joiner.username, communityId: c.id },
      });
    });

    it('a referral rolled back leaves no notification', async () => {
      const referrer = await givenUser(t, tenant);
      const joiner = await givenUser(t, tenant);
      const referrals = t.app.get(ReferralsService);
      await expect(
        t.dataSource.transaction(async (em) => {
          await referrals.record(em, {
            tenantId: tenant.id,
            referrerId: referrer.userId,
            referredId: joiner.userId,
            communityId: community.id,
          });
          throw new Error('join failed');
        }),
      ).rejects.toThrow('join failed');
      expect((await list(referrer).expect(200)).body.total).toBe(0);
    });
  });

  it('an item granted through the management API notifies the user (producer: inventory)', async () => {
    const c = await givenCommunity(t, tenant);
    const u = await givenUser(t, tenant);
    const admin = adminApi(t, tenant);
    const slot = await admin.post('/v1/admin/inventory/slots', { communityId: c.id, key: 'hat', name: 'Hat' }).expect(201);
    const item = await admin.post('/v1/admin/inventory/items', { communityId: c.id, slotId: slot.body.id, name: 'Top hat' }).expect(201);
    await admin.post('/v1/admin/inventory/grants', { userId: u.userId, itemId: item.body.id, reason: 'test' }).expect(201);
    const res = await list(u, { containerId: c.slug }).expect(200);
    expect(res.body).toMatchObject({ total: 1, unreadCount: 1 });
    expect(res.body.items[0]).toMatchObject({ type: 'item_granted', communityId: c.id });
  });

  it('tells a player the operator dropped them, and every registered player that the event was cancelled (producers: participation, quest events)', async () => {
    const c = await givenCommunity(t, tenant);
    const event = await givenEvent(t, tenant, c);
    const [dropped, stays, left, outsider] = await givenMembers(t, tenant, c, 4);
    t.clock.advance(HOUR + 1000); // registration open
    for (const u of [dropped, stays, left])
      await t.http().post(`/v1/quest-event/${event.id}/participant/register`).set('Authorization', u.auth).expect(201);
    await t.http().put(`/v1/quest-event/${event.id}/participant/unregister`).set('Authorization', left.auth).expect(200);
    const admin = adminApi(t, tenant);
    await admin.post(`/v1/admin/quest-events/${event.id}/participants/drop`, { userId: dropped.userId, reason: 'Cheating' }).expect(200);
    await admin.post(`/v1/admin/quest-events/${event.id}/cancel`, {}).expect(200);
    const about = async (u: TestUser) => {
      const res = await list(u, { containerId: c.slug }).expect(200);
      return (res.body.items as { type: string; title: string; data: object }[])
        .filter((n) => n.type === 'event_dropped' || n.type === 'event_cancelled')
        .map(({ type, title, data }) => ({ type, title, data }));
    };
    const named = { eventId: event.id, eventName: 'Spring Cup' };
    expect({
      dropped: await about(dropped),
      stays: await about(stays),
      left: await about(left),
      outsider: await about(outsider),
    }).toEqual({
      dropped: [{ type: 'event_dropped', title: 'You were removed from Spring Cup', data: { ...named, reason: 'Cheating' } }],
      stays: [{ type: 'event_cancelled', title: 'Spring Cup was cancelled', data: named }],
      left: [],
      outsider: [],
    });
  });

  describe('bad requests', () => {
    it.each([
      ['no containerId', {}],
      ['an empty containerId', { containerId: '' }],
      ['page 0', { containerId: 'x', page: 0 }],
      ['a limit over 100', { containerId: 'x', limit: 101 }],
      ['a non-numeric page', { containerId: 'x', page: 'two' }],
      ['an unknown parameter', { containerId: 'x', unread: 'true' }],
    ])('%s is 400', async (_name, query) => {
      const u = await givenUser(t, tenant);
      const res = await list(u, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(10002);
    });

    it('an unknown community is 404', async () => {
      const u = await givenUser(t, tenant);
      const res = await list(u, { containerId: 'no-such-community' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('community_not_found');
    });

    it('both routes require a session', async () => {
      await t.http().get(`/v1/user/notifications?containerId=${community.slug}`).expect(401);
      await t.http().post('/v1/user/notifications/read').expect(401);
    });
  });
});
