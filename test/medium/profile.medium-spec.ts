import { InventoryService } from '../../src/inventory/inventory.service.js';
import { ProfileModule } from '../../src/profile/profile.module.js';
import { ProfileService } from '../../src/profile/profile.service.js';
import { PROFILE_FIELDS } from '../../src/profile/dto/profile.dto.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersService } from '../../src/users/users.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenResourceType, givenTenant, uniqueName } from './fixtures.js';

/** ProfileService on the real database: the user's own profile (one row, made on the first update) and the public page. */
describe('ProfileService (medium: ProfileModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let profiles: ProfileService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [ProfileModule, TenantsModule] });
    profiles = t.get(ProfileService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  const givenLogin = async () => {
    const username = uniqueName('login');
    const user = await t.get(UsersService).create(t.dataSource.manager, { tenantId, handle: uniqueName('h').replace('-', '_'), username });
    return { id: user.id, username, handle: user.handle };
  };

  it('an update writes only the given fields; null clears; only the asked fields come back, in their order', async () => {
    const { id } = await givenLogin();
    expect(await profiles.getProfile(tenantId, id, ['biography', 'id'])).toEqual({ id, biography: null });
    await profiles.updateProfile(tenantId, id, {
      biography: 'Pirate',
      dateOfBirth: { year: 1990, month: 2, day: 3 },
      address: { addressLine1: '1 Main St', city: 'Paris', country: 'FR' },
    });
    const after = await profiles.updateProfile(tenantId, id, { displayName: 'Cap', address: null });
    expect(after).toMatchObject({ displayName: 'Cap', biography: 'Pirate', dateOfBirth: { year: 1990, month: 2, day: 3 }, address: null });
    expect(Object.keys(after)).toEqual([...PROFILE_FIELDS]);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM user_profiles WHERE user_id = $1', [id]);
    expect(n).toBe(1);
    expect(await domainErrorOf(profiles.updateProfile(tenantId, id, { dateOfBirth: { year: 2999, month: 1, day: 1 } }))).toBe(
      'invalid_date_of_birth',
    );
  });

  it("the public page is found by id, handle or login name; shows XP, rank and the avatar; another tenant's user is not found", async () => {
    const community = await givenCommunity(t, tenantId);
    const { id, username, handle } = await givenLogin();
    const bare = await profiles.getPublicProfile(tenantId, username.toUpperCase(), community);
    expect(bare).toMatchObject({ userId: id, handle, member: false, xp: 0, rank: null, xpResource: null, avatar: [] });

    const xp = await givenResourceType(t, tenantId, community);
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: id, resourceTypeId: xp, amount: 40, reason: 'medium-test' });
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId: community, key: uniqueName('k'), name: 'Head' });
    const hat = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: 'Hat' });
    await inventory.adminGrant(tenantId, { userId: id, itemId: hat.id, reason: 'medium-test' });
    await inventory.allocate(tenantId, community, id, { slots: [{ slotId: slot.id, itemId: hat.id }] });
    const page = await profiles.getPublicProfile(tenantId, handle, community);
    expect(page).toMatchObject({ xp: 40, rank: 1, avatar: [{ slotKey: slot.key, itemId: hat.id, name: 'Hat' }] });
    expect((await profiles.getPublicProfile(tenantId, id.toUpperCase(), community)).userId).toBe(id);
    expect(await domainErrorOf(profiles.getPublicProfile(await givenTenant(t), id, community))).toBe('community_not_found');
    expect(await domainErrorOf(profiles.getPublicProfile(tenantId, 'nobody_here', community))).toBe('profile_user_not_found');
  });
});
