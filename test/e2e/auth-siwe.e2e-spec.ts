import { Wallet } from 'ethers';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { WalletsService } from '../../src/wallets/wallets.service.js';
import { siweLogin } from '../helpers/auth.js';
import { givenUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { expectError } from '../helpers/errors.js';

describe('Sign-In With Ethereum', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    await t.app.get(TenantsService).updateSettings(tenant.id, {
      siweAllowedOrigins: ['https://game.example.com', 'http://localhost:5173'],
      siweAllowedChainIds: [1, 137],
    });
  });

  const login = (body: object, tenantRef = tenant.id) => t.http().post('/v1/user/auth/siwe/login').set('X-Tenant-Id', tenantRef).send(body);

  it('logs in with a signed message, keeps the checksummed address as identity and wallet on the message chain', async () => {
    const w = Wallet.createRandom();
    const first = await login(await siweLogin(t, w, { chainId: 137 }));
    expect(first.status).toBe(200);
    const again = await login(await siweLogin(t, w));
    expect(again.body.userId).toBe(first.body.userId);
    const wallet = await t.http().get('/v1/user/wallet').set('Authorization', `Bearer ${first.body.sessionToken}`);
    expect(wallet.body).toMatchObject({ address: w.address, chain: 'evm:137', provider: 'siwe' });
    const evm = await t.app.get(WalletsService).findEvmWallet(tenant.id, first.body.userId);
    expect(evm?.address).toBe(w.address);
    const [identity] = await t.dataSource.query("SELECT subject_id FROM identities WHERE provider = 'siwe' AND user_id = $1", [
      first.body.userId,
    ]);
    expect(identity.subject_id).toBe(w.address);
  });

  it('accepts an http origin with a port and a scheme in the message', async () => {
    const res = await login(
      await siweLogin(t, Wallet.createRandom(), { scheme: 'http', domain: 'localhost:5173', uri: 'http://localhost:5173/' }),
    );
    expect(res.status).toBe(200);
  });

  it('records the referrer of a new user', async () => {
    const referrer = await givenUser(t, tenant);
    const res = await login({ ...(await siweLogin(t, Wallet.createRandom())), referrerHandle: referrer.username });
    expect(await t.dataSource.query('SELECT referrer_id FROM referrals WHERE referred_id = $1', [res.body.userId])).toEqual([
      { referrer_id: referrer.userId },
    ]);
  });

  it('the optional nonce endpoint gives a fresh alphanumeric nonce that works once', async () => {
    const n = await t.http().get('/v1/user/auth/siwe/nonce').set('X-Tenant-Id', tenant.id);
    expect(n.status).toBe(200);
    expect(n.body.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    const w = Wallet.createRandom();
    expect((await login(await siweLogin(t, w, { nonce: n.body.nonce }))).status).toBe(200);
    expectError(await login(await siweLogin(t, w, { nonce: n.body.nonce })), 401, 12035, 'siwe_nonce_replayed');
  });

  describe('refused messages', () => {
    it('wrong domain', async () => {
      expectError(
        await login(await siweLogin(t, Wallet.createRandom(), { domain: 'evil.example.com' })),
        401,
        12031,
        'siwe_domain_not_allowed',
      );
    });
    it('URI outside the allowed origins', async () => {
      expectError(
        await login(await siweLogin(t, Wallet.createRandom(), { uri: 'https://evil.example.com/login' })),
        401,
        12031,
        'siwe_domain_not_allowed',
      );
    });
    it('scheme that does not match the origin', async () => {
      expectError(await login(await siweLogin(t, Wallet.createRandom(), { scheme: 'http' })), 401, 12031, 'siwe_domain_not_allowed');
    });
    it('a tenant without allowed origins', async () => {
      const bare = await t.givenTenant();
      expectError(await login(await siweLogin(t, Wallet.createRandom()), bare.id), 401, 12031, 'siwe_domain_not_allowed');
    });
    it('a chain that is not allowed', async () => {
      expectError(await login(await siweLogin(t, Wallet.createRandom(), { chainId: 5 })), 401, 12032, 'siwe_chain_not_allowed');
    });
    it('an expired message', async () => {
      const body = await siweLogin(t, Wallet.createRandom(), { expirationTime: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      t.clock.advance(120_000);
      expectError(await login(body), 401, 12033, 'siwe_message_expired');
    });
    it('a message issued too long ago (more than 10 minutes)', async () => {
      const body = await siweLogin(t, Wallet.createRandom());
      t.clock.advance(11 * 60_000);
      expectError(await login(body), 401, 12033, 'siwe_message_expired');
    });
    it('notBefore in the future', async () => {
      expectError(
        await login(await siweLogin(t, Wallet.createRandom(), { notBefore: new Date(t.clock.now().getTime() + 600_000).toISOString() })),
        401,
        12034,
        'siwe_message_not_yet_valid',
      );
    });
    it('issuedAt in the future', async () => {
      expectError(
        await login(await siweLogin(t, Wallet.createRandom(), { issuedAt: new Date(t.clock.now().getTime() + 600_000).toISOString() })),
        401,
        12034,
        'siwe_message_not_yet_valid',
      );
    });
    it('a reused nonce, also by another address', async () => {
      const nonce = 'reusedNonce12345';
      expect((await login(await siweLogin(t, Wallet.createRandom(), { nonce }))).status).toBe(200);
      expectError(await login(await siweLogin(t, Wallet.createRandom(), { nonce })), 401, 12035, 'siwe_nonce_replayed');
    });
    it('the same signed message replayed concurrently logs in once', async () => {
      const body = await siweLogin(t, Wallet.createRandom());
      const results = await Promise.all(Array.from({ length: 4 }, () => login(body)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    });
    it('a signature of another address', async () => {
      const victim = Wallet.createRandom();
      const attacker = Wallet.createRandom();
      const { message } = await siweLogin(t, attacker, { address: victim.address });
      expectError(await login({ message, signature: await attacker.signMessage(message) }), 401, 12036, 'siwe_signature_invalid');
    });
    it('a message altered after signing', async () => {
      const { message, signature } = await siweLogin(t, Wallet.createRandom());
      expectError(
        await login({ message: message.replace('Sign in to the game', 'Sign in to the gamf'), signature }),
        401,
        12036,
        'siwe_signature_invalid',
      );
    });
    it('a malformed signature', async () => {
      const { message } = await siweLogin(t, Wallet.createRandom());
      expectError(await login({ message, signature: '0x1234' }), 401, 12036, 'siwe_signature_invalid');
    });
    it('a malformed message', async () => {
      expectError(await login({ message: 'hello, let me in', signature: '0x00' }), 400, 10002, 'siwe_message_malformed');
    });
    it('a message whose address is not EIP-55 checksummed', async () => {
      const w = Wallet.createRandom();
      const { message, signature } = await siweLogin(t, w);
      const lower = message.replace(w.address, w.address.toLowerCase().replace('0x', '0x'));
      expect(lower).not.toBe(message);
      expectError(await login({ message: lower, signature }), 400, 10002, 'siwe_message_malformed');
    });
    it('a missing signature is a 400', async () => {
      expectError(await login({ message: 'x' }), 400, 10002, 'validation_failed');
    });
  });
});
