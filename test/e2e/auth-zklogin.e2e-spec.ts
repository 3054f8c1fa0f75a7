import { computeZkLoginAddress, jwtToAddress } from '@mysten/sui/zklogin';
import { hkdfSync } from 'node:crypto';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { WalletsService } from '../../src/wallets/wallets.service.js';
import { fakeIdToken, loginToken } from '../helpers/auth.js';
import { givenUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { expectError } from '../helpers/errors.js';
import { uniqueName } from '../factories/unique-name.js';

const MASTER_SEED = '5a'.repeat(32);

/** The documented derivation, written again here: HKDF-SHA256(seed, 'cgs/zklogin-user-salt/v1', JSON [tenant, provider, subject]), 16 bytes. */
const expectedSalt = (tenantId: string, provider: string, subjectId: string) =>
  BigInt(
    `0x${Buffer.from(hkdfSync('sha256', Buffer.from(MASTER_SEED, 'hex'), 'cgs/zklogin-user-salt/v1', JSON.stringify([tenantId, provider, subjectId]), 16)).toString('hex')}`,
  );

describe('zkLogin (providerA, providerD) and the user wallet', () => {
  const t = useTestApp({ ZKLOGIN_MASTER_SEED: MASTER_SEED }, { resetClock: true });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const zk = (provider: 'providerA' | 'providerD', body: object, tenantRef = tenant.id) =>
    t.http().post(`/v1/user/auth/${provider}/zklogin`).set('X-Tenant-Id', tenantRef).send(body);
  const wallet = (sessionToken: string) => t.http().get('/v1/user/wallet').set('Authorization', `Bearer ${sessionToken}`);

  it('creates a Sui zkLogin wallet whose address @mysten/sui computes independently, the same on every login', async () => {
    const subjectId = 'zk-fixed-subject';
    const account = { iss: 'https://accounts.provider-a.test', aud: 'client-a.apps.test', sub: '110169484474386276334' };
    const idToken = await fakeIdToken(account);
    const first = await zk('providerA', { token: await loginToken(t, tenant.sharedSecret, { subjectId, idToken }) });
    expect(first.status).toBe(200);

    const salt = expectedSalt(tenant.id, 'providerA', subjectId);
    expect(salt < 2n ** 128n).toBe(true);
    const expected = computeZkLoginAddress({
      claimName: 'sub',
      claimValue: account.sub,
      iss: account.iss,
      aud: account.aud,
      userSalt: salt,
      legacyAddress: false,
    });
    expect(jwtToAddress(idToken, salt, false)).toBe(expected);

    const w1 = await wallet(first.body.sessionToken);
    expect(w1.status).toBe(200);
    expect(w1.body).toEqual({ address: expected, chain: 'sui', provider: 'providerA', createdAt: expect.any(String) });

    // a later login (new token, new idToken for the same account) keeps the user and the address
    const again = await zk('providerA', {
      token: await loginToken(t, tenant.sharedSecret, { subjectId, idToken: await fakeIdToken(account) }),
    });
    expect(again.body.userId).toBe(first.body.userId);
    expect((await wallet(again.body.sessionToken)).body.address).toBe(expected);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM wallets WHERE user_id = $1', [first.body.userId])).toEqual([{ n: 1 }]);
  });

  it('zkLogin address of a fixed (iss, aud, sub, salt) through the service equals the pinned @mysten/sui value', async () => {
    const wallets = t.app.get(WalletsService);
    // the service derives the salt itself; checking the pinned library value anchors computeZkLoginAddress
    const pinned = computeZkLoginAddress({
      claimName: 'sub',
      claimValue: 'sub-1',
      iss: 'https://issuer.test',
      aud: 'aud-1',
      userSalt: 12345678901234567890n,
      legacyAddress: false,
    });
    expect(pinned).toBe('0xca56f509de0b9ea0a204a6d975cb6e92d13718a4edcbcea6124c364cf7c3d148');
    const viaService = await wallets.zkLoginAddress('tenant-x', 'providerA', 'subject-x', {
      iss: 'https://issuer.test',
      aud: 'aud-1',
      sub: 'sub-1',
    });
    expect(viaService).toBe(
      computeZkLoginAddress({
        claimName: 'sub',
        claimValue: 'sub-1',
        iss: 'https://issuer.test',
        aud: 'aud-1',
        userSalt: expectedSalt('tenant-x', 'providerA', 'subject-x'),
        legacyAddress: false,
      }),
    );
  });

  it('links the wallet to the provider: providerD gives another identity and address', async () => {
    const account = { iss: 'https://provider-d.test', aud: 'client-d', sub: 'd-user' };
    const res = await zk('providerD', {
      token: await loginToken(t, tenant.sharedSecret, { subjectId: 'zk-d-1', idToken: await fakeIdToken(account) }),
    });
    expect(res.status).toBe(200);
    const w = await wallet(res.body.sessionToken);
    expect(w.body).toMatchObject({ chain: 'sui', provider: 'providerD' });
    expect(w.body.address).toBe(
      computeZkLoginAddress({
        claimName: 'sub',
        claimValue: 'd-user',
        iss: account.iss,
        aud: account.aud,
        userSalt: expectedSalt(tenant.id, 'providerD', 'zk-d-1'),
        legacyAddress: false,
      }),
    );
  });

  it('accepts a one-element aud array in the idToken', async () => {
    const res = await zk('providerA', {
      token: await loginToken(t, tenant.sharedSecret, {
        idToken: await fakeIdToken({ iss: 'https://i.test', aud: ['only-client'], sub: 's' }),
      }),
    });
    expect(res.status).toBe(200);
  });

  it('GET /v1/user/wallet is 404 for a user without wallet and 401 without a session', async () => {
    const u = await givenUser(t, tenant);
    expectError(await wallet(u.sessionToken), 404, 12040, 'wallet_not_found');
    expectError(await t.http().get('/v1/user/wallet'), 401, 10411, 'session_token_missing');
  });

  it('a providerB token login creates no wallet', async () => {
    const res = await t
      .http()
      .post('/v1/user/auth/providerB/login')
      .set('X-Tenant-Id', tenant.id)
      .send({ token: await loginToken(t, tenant.sharedSecret) });
    expectError(await wallet(res.body.sessionToken), 404, 12040, 'wallet_not_found');
  });

  describe('refused zkLogins', () => {
    it('a token without the idToken claim', async () => {
      expectError(
        await zk('providerA', { token: await loginToken(t, tenant.sharedSecret, { idToken: undefined }) }),
        401,
        12020,
        'id_token_invalid',
      );
    });

    it('an idToken that is not a JWT', async () => {
      expectError(
        await zk('providerA', { token: await loginToken(t, tenant.sharedSecret, { idToken: 'not-a-jwt' }) }),
        401,
        12020,
        'id_token_invalid',
      );
    });

    it('an idToken without sub, or with several audiences', async () => {
      const noSub = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"iss":"https://i.test","aud":"a"}').toString('base64url')}.c2ln`;
      expectError(
        await zk('providerD', { token: await loginToken(t, tenant.sharedSecret, { idToken: noSub }) }),
        401,
        12020,
        'id_token_invalid',
      );
      const twoAud = await fakeIdToken({ iss: 'https://i.test', aud: ['a', 'b'], sub: 's' });
      expectError(
        await zk('providerD', { token: await loginToken(t, tenant.sharedSecret, { idToken: twoAud }) }),
        401,
        12020,
        'id_token_invalid',
      );
    });

    it('a token minted for the other zkLogin provider', async () => {
      expectError(
        await zk('providerA', { token: await loginToken(t, tenant.sharedSecret, { provider: 'providerD' }) }),
        401,
        12008,
        'login_token_provider',
      );
      expect((await zk('providerD', { token: await loginToken(t, tenant.sharedSecret, { provider: 'providerD' }) })).status).toBe(200);
    });

    it('a replayed zkLogin token', async () => {
      const token = await loginToken(t, tenant.sharedSecret);
      expect((await zk('providerA', { token })).status).toBe(200);
      expectError(await zk('providerA', { token }), 401, 12006, 'login_token_replayed');
    });
  });

  describe('primary account login (spec rule 5)', () => {
    it('refuses another provider account for an existing user when the tenant enforces it; the address stays', async () => {
      const strict = await t.givenTenant();
      await t.app.get(TenantsService).updateSettings(strict.id, { primaryAccountLogin: true });
      const subjectId = 'primary-user';
      const first = await zk(
        'providerA',
        {
          token: await loginToken(t, strict.sharedSecret, {
            subjectId,
            idToken: await fakeIdToken({ iss: 'https://a.test', aud: 'c', sub: 'account-1' }),
          }),
        },
        strict.id,
      );
      expect(first.status).toBe(200);
      const address = (await wallet(first.body.sessionToken)).body.address;

      const other = await zk(
        'providerA',
        {
          token: await loginToken(t, strict.sharedSecret, {
            subjectId,
            idToken: await fakeIdToken({ iss: 'https://a.test', aud: 'c', sub: 'account-2' }),
          }),
        },
        strict.id,
      );
      expectError(other, 403, 12021, 'primary_account_required');

      const back = await zk(
        'providerA',
        {
          token: await loginToken(t, strict.sharedSecret, {
            subjectId,
            idToken: await fakeIdToken({ iss: 'https://a.test', aud: 'c', sub: 'account-1' }),
          }),
        },
        strict.id,
      );
      expect(back.status).toBe(200);
      expect((await wallet(back.body.sessionToken)).body.address).toBe(address);
    });

    it('without the setting, the login succeeds and the first wallet is kept', async () => {
      const subjectId = uniqueName('lenient');
      const first = await zk('providerA', {
        token: await loginToken(t, tenant.sharedSecret, {
          subjectId,
          idToken: await fakeIdToken({ iss: 'https://a.test', aud: 'c', sub: 'one' }),
        }),
      });
      const address = (await wallet(first.body.sessionToken)).body.address;
      const other = await zk('providerA', {
        token: await loginToken(t, tenant.sharedSecret, {
          subjectId,
          idToken: await fakeIdToken({ iss: 'https://a.test', aud: 'c', sub: 'two' }),
        }),
      });
      expect(other.status).toBe(200);
      expect((await wallet(other.body.sessionToken)).body.address).toBe(address);
    });
  });
});
