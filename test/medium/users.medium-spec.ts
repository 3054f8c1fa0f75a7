import { ReferralsService } from '../../src/users/referrals.service.js';
import { UsersModule } from '../../src/users/users.module.js';
import { UsersService } from '../../src/users/users.service.js';
import { NotificationsModule } from '../../src/notifications/notifications.module.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, givenUser, numbers, uniqueName } from './fixtures.js';

/** UsersService and ReferralsService on the real database: handles, usernames, identity changes, referrals. */
describe('UsersService, ReferralsService (medium: UsersModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let users: UsersService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [UsersModule, NotificationsModule, TenantsModule] });
    users = t.get(UsersService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('handles are sanitised and made unique with a suffix; a taken username is refused; lookups ignore case', async () => {
    const m = t.dataSource.manager;
    const base = uniqueName('Ada').replace('-', '_');
    const first = await users.create(m, { tenantId, handle: base, username: `${base}-login`, displayName: 'Ada' });
    expect(first).toMatchObject({ handle: base, handleNormalized: base.toLowerCase(), username: `${base}-login`, displayName: 'Ada' });
    const second = await users.create(m, { tenantId, handle: base });
    expect(second.handle).toMatch(new RegExp(`^${base}_\\d{4}$`));
    // Too short or made of symbols only: prefixed.
    expect((await users.create(m, { tenantId, handle: '!!' })).handle).toMatch(/^user_/);
    expect((await users.create(m, { tenantId, handle: 'é' })).handle).toMatch(/^user_e/);
    expect(await domainErrorOf(users.create(m, { tenantId, handle: uniqueName('x'), username: `${base.toUpperCase()}-LOGIN` }))).toBe(
      'username_taken',
    );
    expect((await users.findByUsername(tenantId, `${base.toUpperCase()}-Login`))?.id).toBe(first.id);
    expect((await users.findByHandle(tenantId, base.toUpperCase()))?.id).toBe(first.id);
    // Another tenant may use the same handle and username.
    expect((await users.create(m, { tenantId: await givenTenant(t), handle: base, username: `${base}-login` })).handle).toBe(base);
  });

  it("updateIdentity changes the display name and handle, refuses another user's handle, and an unknown user", async () => {
    const m = t.dataSource.manager;
    const [a, b] = [await givenUser(t, tenantId), await givenUser(t, tenantId)];
    const handleB = (await users.getById(tenantId, b)).handle;
    const newHandle = uniqueName('New').replace('-', '_');
    await users.updateIdentity(m, tenantId, a, { displayName: 'Grace', handle: newHandle });
    expect(await users.getById(tenantId, a)).toMatchObject({
      displayName: 'Grace',
      handle: newHandle,
      handleNormalized: newHandle.toLowerCase(),
    });
    expect(await domainErrorOf(users.updateIdentity(m, tenantId, a, { handle: handleB.toUpperCase() }))).toBe('handle_taken');
    expect(await domainErrorOf(users.updateIdentity(m, tenantId, '00000000-0000-4000-8000-00000000beef', { displayName: 'x' }))).toBe(
      'user_not_found',
    );
    // Nothing to change: nothing is written, even for an unknown user.
    await users.updateIdentity(m, tenantId, '00000000-0000-4000-8000-00000000beef', {});
    expect(await domainErrorOf(users.getById(await givenTenant(t), a))).toBe('user_not_found');
  });

  it('referrals: the first referrer per scope is kept, self-referral is refused; the referrer is notified; lists filter by community', async () => {
    const referrals = t.get(ReferralsService);
    const m = t.dataSource.manager;
    const community = await givenCommunity(t, tenantId);
    const [ann, bob, cat] = [await givenUser(t, tenantId), await givenUser(t, tenantId), await givenUser(t, tenantId)];
    expect(await referrals.record(m, { tenantId, referrerId: ann, referredId: bob })).toBe(true);
    expect(await referrals.record(m, { tenantId, referrerId: cat, referredId: bob })).toBe(false);
    expect(await referrals.record(m, { tenantId, referrerId: ann, referredId: cat, communityId: community })).toBe(true);
    expect(await domainErrorOf(referrals.record(m, { tenantId, referrerId: ann, referredId: ann }))).toBe('self_referral');

    expect((await referrals.referredHandles(tenantId, ann)).map((r) => r.userId).sort()).toEqual([bob, cat].sort());
    expect(await referrals.referredHandles(tenantId, ann, community)).toEqual([
      expect.objectContaining({ userId: cat, communityId: community, handle: (await users.getById(tenantId, cat)).handle }),
    ]);
    expect(
      await numbers(t.dataSource, "SELECT count(*) AS n FROM notifications WHERE user_id = $1 AND type = 'referral_joined'", [ann]),
    ).toEqual({
      n: 2,
    });
  });
});
