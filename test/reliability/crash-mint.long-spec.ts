import { Wallet, id as keccakText } from 'ethers';
import { createTestDatabase } from '../setup/test-database.js';
import { HARDHAT_KEYS, startTestChain, type TestChain } from '../helpers/chain.js';
import { setTenantSettings, startCluster, type Cluster } from '../helpers/processes.js';
import { asAdmin, countBy, expectOk, givenCommunity, givenItem, pool, report, siweBody, SIWE_ORIGIN } from './support.js';

const MINTS = 8;

/**
 * Part 3 (mints): kill -9 the instance whose worker is minting, restart it; every job ends minted
 * exactly once on a real local chain (hardhat), none twice. Long: a job claimed by the dead worker
 * is taken again only after its lease (MINT_RECEIPT_TIMEOUT_MS + 60 s), so this runs only under
 * `npm run test:reliability`.
 */
describe('crash: kill -9 while avatar mint jobs are in flight', () => {
  let chain: TestChain;
  let c: Cluster;

  beforeAll(async () => {
    chain = await startTestChain();
    c = await startCluster(createTestDatabase, 2, {
      MINT_WORKER_ENABLED: 'true',
      MINT_POLL_INTERVAL_MS: '200',
      MINT_RECEIPT_TIMEOUT_MS: '3000',
      BLOCKCHAINS: JSON.stringify({
        local: { rpcUrl: chain.rpcUrl, chainId: 31337, contractAddress: chain.contractAddress, minterKey: HARDHAT_KEYS[0], enabled: true },
      }),
    });
    setTenantSettings(c.databaseUrl, c.tenant.id, { siweAllowedOrigins: [SIWE_ORIGIN] });
  }, 180_000);
  afterAll(async () => {
    await c?.close();
    await chain?.stop();
  });

  it('resumes in-flight mint jobs after the crash and mints each exactly once', async () => {
    const [victim, survivor] = c.apps;
    const tenant = c.tenant;
    const community = await givenCommunity(survivor, tenant);
    const item = await givenItem(survivor, tenant, community.id);
    const players = await pool(4, MINTS, async () => {
      const wallet = Wallet.createRandom();
      const login = expectOk(
        await survivor.call('POST', '/v1/user/auth/siwe/login', { headers: { 'X-Tenant-Id': tenant.id }, body: await siweBody(wallet) }),
        200,
        'siwe',
      );
      const auth = { Authorization: `Bearer ${login.body.sessionToken}` };
      expectOk(
        await survivor.call('POST', '/v1/admin/inventory/grants', {
          headers: asAdmin(tenant),
          body: { userId: login.body.userId, itemId: item.id, reason: 'test' },
        }),
        201,
        'grant',
      );
      expectOk(
        await survivor.call('POST', `/v1/community/${community.id}/inventory/slots/allocate`, {
          headers: auth,
          body: { slots: [{ slotId: item.slotId, itemId: item.id }] },
        }),
        201,
        'allocate',
      );
      return { wallet, auth, userId: login.body.userId as string };
    });
    const nonceBefore = await chain.provider.getTransactionCount(chain.minter.address);

    // the mints are requested on the victim (its worker is kicked at once), which dies right after
    const requested = await Promise.all(
      players.map((p) =>
        victim.call('POST', `/v1/community/${community.id}/inventory/avatar/mint`, { headers: p.auth, body: { blockchain: 'local' } }),
      ),
    );
    expect(countBy(requested, (r) => r.status)).toEqual({ 201: MINTS });
    await new Promise((r) => setTimeout(r, 150));
    const atCrash = await c.sql.query<{ status: string }>('SELECT status FROM avatar_mints');
    await victim.kill('SIGKILL');
    await victim.restart();

    const started = Date.now();
    let rows: { id: string; status: string; token_id: string; recipient: string; attempts: number }[] = [];
    while (Date.now() - started < 240_000) {
      rows = (await c.sql.query('SELECT id, status, token_id, recipient, attempts FROM avatar_mints')).rows;
      if (rows.length === MINTS && rows.every((r) => r.status === 'minted' || r.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(countBy(rows, (r) => r.status)).toEqual({ minted: MINTS });
    // one token per job, owned by its recipient; the token id is derived from the job id
    for (const r of rows) {
      expect(BigInt(r.token_id)).toBe(BigInt(keccakText(`cgs-avatar:${r.id}`)));
      expect(await chain.contract.ownerOf(BigInt(r.token_id))).toBe(r.recipient);
    }
    const transfers = await chain.contract.queryFilter(chain.contract.filters.Transfer('0x0000000000000000000000000000000000000000'));
    expect(transfers.length).toBe(MINTS);
    const sent = (await chain.provider.getTransactionCount(chain.minter.address)) - nonceBefore;
    report('3b. crash during mints (hardhat chain)', {
      mintJobs: MINTS,
      statusesAtCrash: countBy(atCrash.rows, (r) => r.status),
      finalStatuses: countBy(rows, (r) => r.status),
      tokensMinted: transfers.length,
      mintTransactionsSent: sent,
      doubleMints: transfers.length - new Set(transfers.map((t) => String((t as { args?: unknown[] }).args?.[2]))).size,
      secondsToFinish: Math.round((Date.now() - started) / 1000),
    });
  }, 300_000);
});
