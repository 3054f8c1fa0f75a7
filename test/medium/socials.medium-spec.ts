import { SocialsModule } from '../../src/socials/socials.module.js';
import { SocialsService } from '../../src/socials/socials.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenTenant, givenUser, uniqueName } from './fixtures.js';

/** SocialsService on the real database: linking (in place for the holder, refused for others), tokens encrypted at rest. */
describe('SocialsService (medium: SocialsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let socials: SocialsService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [SocialsModule, UsersModule, TenantsModule], env: { SOCIAL_ACCOUNT_TYPES: 'guild' } });
    socials = t.get(SocialsService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('a token is stored encrypted and read back only by the server; null clears it; relinking updates the same row', async () => {
    const user = await givenUser(t, tenantId);
    const subjectId = uniqueName('sub');
    const linked = await socials.linkSocial(tenantId, user, {
      accountType: 'discord',
      subjectId,
      public: false,
      userToken: 'secret-token',
      expiryDate: '2030-01-01T00:00:00.000Z',
    });
    expect(linked).toMatchObject({ hasUserToken: true, hasRefreshToken: false, expiryDate: '2030-01-01T00:00:00.000Z', public: false });
    const [stored] = await t.dataSource.query<{ user_token_encrypted: string }[]>(
      'SELECT user_token_encrypted FROM social_accounts WHERE id = $1',
      [linked.id],
    );
    expect(stored.user_token_encrypted).not.toContain('secret-token');
    expect(await socials.readToken(tenantId, user, linked.id, 'userToken')).toBe('secret-token');
    expect(await socials.readToken(tenantId, user, linked.id, 'refreshToken')).toBeNull();

    const again = await socials.linkSocial(tenantId, user, {
      accountType: 'discord',
      subjectId,
      public: true,
      userToken: null,
      expiryDate: null,
    });
    expect(again).toMatchObject({ id: linked.id, public: true, hasUserToken: false, expiryDate: null });
    expect(await socials.readToken(tenantId, user, linked.id, 'userToken')).toBeNull();
    expect(await socials.publicSocials(tenantId, user)).toEqual([{ accountType: 'discord', subjectId, handle: null, server: null }]);
  });

  it("another user's account is taken, not found, and not deletable; unsupported types are refused; configured types are added", async () => {
    const [ann, bob] = [await givenUser(t, tenantId), await givenUser(t, tenantId)];
    const subjectId = uniqueName('sub');
    const annAccount = await socials.linkSocial(tenantId, ann, { accountType: 'guild', subjectId, public: true });
    expect(socials.supportedAccountTypes()).toContain('guild');
    expect(await domainErrorOf(socials.linkSocial(tenantId, bob, { accountType: 'guild', subjectId, public: true }))).toBe(
      'social_account_taken',
    );
    expect(await domainErrorOf(socials.updateSocial(tenantId, bob, { socialId: annAccount.id, handle: 'x' }))).toBe('social_not_found');
    expect(await domainErrorOf(socials.readToken(tenantId, bob, annAccount.id, 'userToken'))).toBe('social_not_found');
    expect(await domainErrorOf(socials.deleteSocial(tenantId, bob, annAccount.id))).toBe('social_not_found');
    expect(await domainErrorOf(socials.listSocialsOfType(tenantId, ann, 'myspace'))).toBe('unsupported_account_type');

    const updated = await socials.updateSocial(tenantId, ann, { socialId: annAccount.id, public: false, handle: 'ann#1', server: 'eu' });
    expect(updated).toMatchObject({ public: false, handle: 'ann#1', server: 'eu' });
    expect(await socials.listSocialsOfType(tenantId, ann, 'guild')).toEqual([updated]);
    await socials.deleteSocial(tenantId, ann, annAccount.id);
    expect(await socials.listSocials(tenantId, ann)).toEqual([]);
  });
});
