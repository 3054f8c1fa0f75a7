import { CommunitiesService } from '../../src/communities/communities.service.js';
import { NotificationsModule } from '../../src/notifications/notifications.module.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersService } from '../../src/users/users.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, givenUser, numbers } from './fixtures.js';

/**
 * CommunitiesService on the real database: membership (idempotent, counted atomically), referrals
 * into a community, and the referrer's notification, written by the notifications module in the
 * same transaction through DomainEvents (NotificationsModule imports CommunitiesModule).
 */
describe('CommunitiesService (medium: CommunitiesModule + NotificationsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let communities: CommunitiesService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [NotificationsModule, TenantsModule], env: { DB_POOL_SIZE: '12' } });
    communities = t.get(CommunitiesService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  const handleOf = async (userId: string) => (await t.get(UsersService).getById(tenantId, userId)).handle;
  const membership = (communityId: string) =>
    numbers(
      t.dataSource,
      `SELECT (SELECT member_count FROM communities WHERE id = $1) AS "memberCount",
              (SELECT count(*) FROM community_members WHERE community_id = $1) AS members`,
      [communityId],
    );

  it('makes a user a member once: a second join changes nothing and says so', async () => {
    const community = await givenCommunity(t, tenantId);
    const user = await givenUser(t, tenantId);
    const first = await communities.join(tenantId, community, user, '');
    expect(first).toMatchObject({ communityId: community, userId: user, created: true, referrerHandle: null });
    t.clock.advance(60_000);
    const again = await communities.join(tenantId, community, user, '');
    expect(again).toMatchObject({ created: false, joinedAt: first.joinedAt });
    expect(await membership(community)).toEqual({ memberCount: 1, members: 1 });
    expect(await communities.isMember(tenantId, community, user)).toBe(true);
    expect((await communities.get(tenantId, community)).memberCount).toBe(1);
  });

  it('counts concurrent joins exactly: one membership per user, member_count = the rows', async () => {
    const community = await givenCommunity(t, tenantId);
    const users = await Promise.all(Array.from({ length: 12 }, () => givenUser(t, tenantId)));
    // Every user joins three times at once.
    const results = await Promise.all(users.flatMap((u) => [0, 1, 2].map(() => communities.join(tenantId, community, u, ''))));
    expect(results.filter((r) => r.created)).toHaveLength(users.length);
    expect(new Set(results.filter((r) => r.created).map((r) => r.userId))).toEqual(new Set(users));
    expect(await membership(community)).toEqual({ memberCount: 12, members: 12 });
  });

  it("records a member's referral, keeps the first referrer, and notifies the referrer in the same transaction", async () => {
    const community = await givenCommunity(t, tenantId);
    const [alice, bob, carol] = [await givenUser(t, tenantId), await givenUser(t, tenantId), await givenUser(t, tenantId)];
    await communities.join(tenantId, community, alice, '');
    await communities.join(tenantId, community, bob, '');
    const joined = await communities.join(tenantId, community, carol, await handleOf(alice));
    expect(joined).toMatchObject({ created: true, referrerHandle: await handleOf(alice) });
    // A later join naming another referrer changes nothing: the first one stays.
    const again = await communities.join(tenantId, community, carol, await handleOf(bob));
    expect(again).toMatchObject({ created: false, referrerHandle: await handleOf(alice) });

    const referrals = await t.dataSource.query<{ referrer_id: string; community_id: string }[]>(
      'SELECT referrer_id, community_id FROM referrals WHERE referred_id = $1',
      [carol],
    );
    expect(referrals).toEqual([{ referrer_id: alice, community_id: community }]);
    const notes = await t.dataSource.query<{ user_id: string; type: string; data: Record<string, unknown> }[]>(
      'SELECT user_id, type, data FROM notifications WHERE tenant_id = $1 AND community_id = $2',
      [tenantId, community],
    );
    expect(notes).toEqual([
      { user_id: alice, type: 'referral_joined', data: expect.objectContaining({ referredUserId: carol, communityId: community }) },
    ]);
    const page = await communities.referralsOf(tenantId, community, alice, { page: 1, limit: 10, offset: 0 });
    expect(page).toMatchObject({ total: 1, items: [{ userId: carol }] });
  });

  it('refuses an unknown referrer, a referrer who is not a member, and self-referral, creating no membership', async () => {
    const community = await givenCommunity(t, tenantId);
    const [member, outsider, newcomer] = [await givenUser(t, tenantId), await givenUser(t, tenantId), await givenUser(t, tenantId)];
    await communities.join(tenantId, community, member, '');
    expect(await domainErrorOf(communities.join(tenantId, community, newcomer, 'nobody_has_this_handle'))).toBe('unknown_referrer');
    expect(await domainErrorOf(communities.join(tenantId, community, newcomer, await handleOf(outsider)))).toBe('unknown_referrer');
    expect(await domainErrorOf(communities.join(tenantId, community, member, await handleOf(member)))).toBe('self_referral');
    expect(await membership(community)).toEqual({ memberCount: 1, members: 1 });
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM referrals WHERE community_id = $1', [community])).toEqual({ n: 0 });
  });

  it("resolves a community by id or slug (any case) only in its own tenant; another tenant's is community_not_found", async () => {
    const community = await givenCommunity(t, tenantId);
    const { slug } = await communities.get(tenantId, community);
    expect((await communities.resolve(tenantId, slug.toUpperCase())).id).toBe(community);
    expect((await communities.resolve(tenantId, community)).slug).toBe(slug);
    const otherTenant = await givenTenant(t);
    expect(await domainErrorOf(communities.resolve(otherTenant, community))).toBe('community_not_found');
    expect(await domainErrorOf(communities.join(otherTenant, slug, await givenUser(t, otherTenant), ''))).toBe('community_not_found');
    expect(await membership(community)).toEqual({ memberCount: 0, members: 0 });
  });
  it('update changes description, image, banner and links; an empty or over-long reference is community_not_found', async () => {
    const community = await givenCommunity(t, tenantId);
    const changed = await communities.update(tenantId, community, {
      description: 'Pirates in space',
      imageUrl: 'https://img.example/p.png',
      bannerUrl: 'https://img.example/b.png',
      links: [{ label: 'Site', url: 'https://pirates.example' }],
    });
    expect(changed).toMatchObject({
      description: 'Pirates in space',
      imageUrl: 'https://img.example/p.png',
      bannerUrl: 'https://img.example/b.png',
      links: [{ label: 'Site', url: 'https://pirates.example' }],
    });
    expect(await communities.get(tenantId, community)).toMatchObject({ description: 'Pirates in space', links: [{ label: 'Site' }] });
    expect(await domainErrorOf(communities.resolve(tenantId, '   '))).toBe('community_not_found');
    expect(await domainErrorOf(communities.resolve(tenantId, 'c'.repeat(65)))).toBe('community_not_found');
  });
});
