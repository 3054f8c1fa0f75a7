import { AuthModule } from '../../src/auth/auth.module.js';
import { IdentityLoginService } from '../../src/auth/identity-login.service.js';
import { UsersService } from '../../src/users/users.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenTenant, givenUser, uniqueName } from './fixtures.js';

const HOUR = 3_600_000;

/**
 * IdentityLoginService on the real database: the first login of an identity makes its user, later
 * ones find it; provider tokens are kept encrypted; a one-time nonce is accepted once (until it expires).
 */
describe('IdentityLoginService (medium: AuthModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let logins: IdentityLoginService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [AuthModule] });
    logins = t.get(IdentityLoginService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('the first login makes a user (a blank handle becomes "user"), the next finds it; absent tokens keep the stored ones', async () => {
    const subjectId = uniqueName('sub');
    const created: boolean[] = [];
    const afterUser = (_em: unknown, u: { id: string; created: boolean }) => Promise.resolve(void created.push(u.created));
    const first = await logins.login({
      tenantId,
      provider: 'providerB',
      subjectId,
      handle: '   ',
      tokens: { idToken: 'id-1', accessToken: 'at-1' },
      afterUser,
    });
    const again = await logins.login({
      tenantId,
      provider: 'providerB',
      subjectId,
      handle: 'ignored',
      tokens: { accessToken: 'at-2' },
      afterUser,
    });
    expect(created).toEqual([true, false]);
    expect(again.userId).toBe(first.userId);
    expect((await t.get(UsersService).getById(tenantId, first.userId)).handle).toMatch(/^user/);
    expect(await logins.providerTokens(tenantId, 'providerB', subjectId)).toEqual({ idToken: 'id-1', accessToken: 'at-2' });
    expect(await logins.providerTokens(tenantId, 'providerB', `${subjectId}-other`)).toBeNull();
    // The same subject at another provider is another identity, so another user.
    expect((await logins.login({ tenantId, provider: 'providerC', subjectId, handle: 'ada' })).userId).not.toBe(first.userId);
  });

  it('a nonce is used once: a replay is refused by kind; once expired, its row is taken over', async () => {
    const subjectId = uniqueName('sub');
    const nonce = (kind: 'login_token' | 'siwe', value: string) => ({ kind, value, expiresAt: new Date(t.clock.now().getTime() + HOUR) });
    const value = uniqueName('n');
    const firstLogin = await logins.login({ tenantId, provider: 'providerB', subjectId, handle: 'bo', nonce: nonce('login_token', value) });
    expect(
      await domainErrorOf(logins.login({ tenantId, provider: 'providerB', subjectId, handle: 'bo', nonce: nonce('login_token', value) })),
    ).toBe('login_token_replayed');
    const siwe = uniqueName('s');
    await logins.login({ tenantId, provider: 'siwe', subjectId: `0x${subjectId}`, handle: 'bo', nonce: nonce('siwe', siwe) });
    expect(
      await domainErrorOf(
        logins.login({ tenantId, provider: 'siwe', subjectId: `0x${subjectId}`, handle: 'bo', nonce: nonce('siwe', siwe) }),
      ),
    ).toBe('siwe_nonce_replayed');
    t.clock.advance(2 * HOUR);
    const later = await logins.login({ tenantId, provider: 'providerB', subjectId, handle: 'bo', nonce: nonce('login_token', value) });
    expect(later.userId).toBe(firstLogin.userId);
    t.clock.reset();
  });

  it('a sign-up names its referrer: a known handle is recorded, an unknown one is ignored', async () => {
    const referrer = await givenUser(t, tenantId);
    const handle = (await t.get(UsersService).getById(tenantId, referrer)).handle;
    const known = await logins.login({
      tenantId,
      provider: 'providerD',
      subjectId: uniqueName('sub'),
      handle: 'cy',
      referrerHandle: ` ${handle} `,
    });
    const unknown = await logins.login({
      tenantId,
      provider: 'providerD',
      subjectId: uniqueName('sub'),
      handle: 'di',
      referrerHandle: 'nobody_at_all',
    });
    const rows = await t.dataSource.query<{ referred_id: string }[]>('SELECT referred_id FROM referrals WHERE referrer_id = $1', [
      referrer,
    ]);
    expect(rows).toEqual([{ referred_id: known.userId }]);
    expect(unknown.userId).not.toBe(known.userId);
  });
});
