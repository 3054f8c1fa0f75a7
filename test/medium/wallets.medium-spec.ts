import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { WalletsModule } from '../../src/wallets/wallets.module.js';
import { WalletsService, evmChain, SUI_CHAIN } from '../../src/wallets/wallets.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenTenant, givenUser } from './fixtures.js';

const ACCOUNT = { iss: 'https://accounts.example.com', aud: 'client-1', sub: 'subject-1' };
const SEED = 'ab'.repeat(32);

/** WalletsService on the real database: one wallet per user, provider and chain; zkLogin addresses from the master seed. */
describe('WalletsService (medium: WalletsModule on PostgreSQL, ZKLOGIN_MASTER_SEED set)', () => {
  let t: ModuleTest;
  let wallets: WalletsService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [WalletsModule, UsersModule, TenantsModule], env: { ZKLOGIN_MASTER_SEED: SEED } });
    wallets = t.get(WalletsService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('ensure creates a wallet once per user, provider and chain; an address another user holds is refused; the first EVM wallet is found', async () => {
    const m = t.dataSource.manager;
    const [ann, bob] = [await givenUser(t, tenantId), await givenUser(t, tenantId)];
    expect(await domainErrorOf(wallets.getUserWalletDto(tenantId, ann))).toBe('wallet_not_found');
    const address = `0x${'1'.repeat(40)}`;
    const first = await wallets.ensure(m, { tenantId, userId: ann, provider: 'siwe', chain: evmChain(1), address });
    const again = await wallets.ensure(m, { tenantId, userId: ann, provider: 'siwe', chain: evmChain(1), address: `0x${'2'.repeat(40)}` });
    expect(again).toMatchObject({ id: first.id, address });
    await expect(wallets.ensure(m, { tenantId, userId: bob, provider: 'siwe', chain: evmChain(1), address })).rejects.toThrow(
      /belongs to another user/,
    );
    t.clock.advance(1000);
    await wallets.ensure(m, { tenantId, userId: ann, provider: 'siwe', chain: evmChain(137), address: `0x${'3'.repeat(40)}` });
    expect((await wallets.findEvmWallet(tenantId, ann))?.chain).toBe(evmChain(1));
    expect(await wallets.findEvmWallet(tenantId, bob)).toBeNull();
    expect((await wallets.listUserWallets(tenantId, ann)).map((w) => w.chain)).toEqual([evmChain(1), evmChain(137)]);
    expect(await wallets.getUserWalletDto(tenantId, ann)).toMatchObject({ address, chain: evmChain(1), provider: 'siwe' });
    t.clock.reset();
  });

  it('a zkLogin address depends on the configured seed, the tenant and the subject, and is stable', async () => {
    const a = await wallets.zkLoginAddress(tenantId, 'google', 'subject-1', ACCOUNT);
    expect(a).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await wallets.zkLoginAddress(tenantId, 'google', 'subject-1', ACCOUNT)).toBe(a);
    expect(await wallets.zkLoginAddress(await givenTenant(t), 'google', 'subject-1', ACCOUNT)).not.toBe(a);
    // The configured seed is used as given: nothing is generated into the database.
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM app_secrets WHERE name = 'zklogin_master_seed'",
    );
    expect(n).toBe(0);
    expect(SUI_CHAIN).toBe('sui');
  });
});
