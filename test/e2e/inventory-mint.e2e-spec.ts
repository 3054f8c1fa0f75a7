import { Wallet, type HDNodeWallet } from 'ethers';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { siweLogin } from '../helpers/auth.js';
import { METRICS_TOKEN, Scrape } from '../helpers/metrics.js';
import {
  HARDHAT_KEYS,
  startFlakyRpc,
  startHardhatNode,
  startTestChain,
  type FlakyRpc,
  type HardhatNode,
  type TestChain,
} from '../helpers/chain.js';
import { eventValidators } from '../helpers/event-schemas.js';
import { mintCalldata } from '../../src/inventory/minting/avatar-contract.js';
import { MintWorker } from '../../src/inventory/minting/mint-worker.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

const BASE = 'https://api.example.test';

// One hardhat node for the file (starting one takes seconds); each describe deploys a contract of its own on it.
let node: HardhatNode;
beforeAll(async () => {
  node = await startHardhatNode();
}, 120_000);
afterAll(() => node?.stop());

describe('inventory: minting the avatar as an NFT on a local chain', () => {
  let chain: TestChain;
  let flaky: FlakyRpc;
  let t: TestApp;
  let tenant: TenantCredentials;
  let community: { id: string; slug: string };
  const items: Record<string, { id: string }> = {};

  interface Player {
    user: { userId: string; auth: string };
    wallet: HDNodeWallet;
  }
  let alice: Player;

  const inv = (path: string) => `/v1/community/${community.slug}/inventory${path}`;
  const worker = () => t.app.get(MintWorker);
  const mint = (auth: string, blockchain: string) => t.http().post(inv('/avatar/mint')).set('Authorization', auth).send({ blockchain });
  const avatarOf = async (userId: string) =>
    (
      await t
        .http()
        .get(inv(`/avatar?userId=${userId}`))
        .set('X-Tenant-Id', tenant.id)
        .expect(200)
    ).body;
  const grant = (userId: string, itemId: string) =>
    t.http().post('/v1/admin/inventory/grants').set('X-Api-Key', tenant.apiKey).send({ userId, itemId, reason: 'test' }).expect(201);
  const allocate = (auth: string, slots: { slotId: string; itemId: string | null }[]) =>
    t.http().post(inv('/slots/allocate')).set('Authorization', auth).send({ slots }).expect(201);
  const minterNonce = () => chain.provider.getTransactionCount(chain.minter.address, 'latest');
  const ownerOf = async (tokenId: string) => (await chain.contract.getFunction('ownerOf')(BigInt(tokenId))) as string;
  const balanceOf = async (address: string) => Number(await chain.contract.getFunction('balanceOf')(address));
  const MINT_STATES = ['requested', 'sending', 'minted', 'retry', 'failed'] as const;
  /** The mint jobs counter of `/metrics`, by state. */
  const mintJobs = async () => {
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    const scrape = new Scrape(res.text);
    return Object.fromEntries(MINT_STATES.map((state) => [state, scrape.value('cgs_mint_jobs_total', { state })]));
  };
  const changes = (before: Record<string, number>, after: Record<string, number>) =>
    Object.fromEntries(MINT_STATES.map((state) => [state, after[state] - before[state]]));

  /** A user who signed in with Ethereum (so has an EVM wallet), holding a hat and a coat. */
  async function givenSiwePlayer(): Promise<Player> {
    const wallet = Wallet.createRandom();
    const login = await t
      .http()
      .post('/v1/user/auth/siwe/login')
      .set('X-Tenant-Id', tenant.id)
      .send(await siweLogin(t, wallet));
    expect(login.status).toBe(200);
    const user = { userId: login.body.userId as string, auth: `Bearer ${login.body.sessionToken}` };
    await grant(user.userId, items.hat.id);
    await grant(user.userId, items.coat.id);
    await grant(user.userId, items.cape.id);
    await allocate(user.auth, [
      { slotId: 'head', itemId: items.hat.id },
      { slotId: 'body', itemId: items.coat.id },
    ]);
    return { user, wallet };
  }

  beforeAll(async () => {
    chain = await startTestChain({ node });
    flaky = await startFlakyRpc(chain.rpcUrl);
    const entry = (rpcUrl: string, extra: object = {}) => ({
      rpcUrl,
      chainId: 31337,
      contractAddress: chain.contractAddress,
      minterKey: HARDHAT_KEYS[0],
      enabled: true,
      ...extra,
    });
    t = await createTestApp({
      METRICS_TOKEN,
      MINT_WORKER_ENABLED: 'false',
      MINT_RECEIPT_TIMEOUT_MS: '5000',
      PUBLIC_BASE_URL: BASE,
      BLOCKCHAINS: JSON.stringify({
        local: entry(chain.rpcUrl),
        flaky: entry(flaky.url),
        // a key that does not own the contract: every mint reverts
        stranger: entry(chain.rpcUrl, { minterKey: HARDHAT_KEYS[2] }),
        off: entry(chain.rpcUrl, { enabled: false }),
      }),
    });
    tenant = await t.givenTenant();
    await subscribeToEveryEvent(t.dataSource, tenant.id); // the outbox writes only what a sink takes
    await t.givenTenant(); // a second tenant: public URLs must name theirs
    await t.dataSource.query(`UPDATE tenants SET settings = settings || $2::jsonb WHERE id = $1`, [
      tenant.id,
      JSON.stringify({ siweAllowedOrigins: ['https://game.example.com'] }),
    ]);
    const c = await t
      .http()
      .post('/v1/admin/communities')
      .set('X-Api-Key', tenant.apiKey)
      .send({ slug: 'pirates', name: 'Space Pirates', imageUrl: 'https://cdn.example.com/pirates.png' });
    community = { id: c.body.id, slug: c.body.slug };
    for (const [key, position] of [
      ['body', 1],
      ['head', 2],
    ] as const) {
      await t
        .http()
        .post('/v1/admin/inventory/slots')
        .set('X-Api-Key', tenant.apiKey)
        .send({ communityId: community.id, key, name: key === 'head' ? 'Head' : 'Body', position })
        .expect(201);
    }
    for (const [name, slotId, imageUrl] of [
      ['hat', 'head', 'https://cdn.example.com/hat.png'],
      ['coat', 'body', null],
      ['cape', 'body', null],
    ] as const) {
      const res = await t
        .http()
        .post('/v1/admin/inventory/items')
        .set('X-Api-Key', tenant.apiKey)
        .send({ communityId: community.id, slotId, name, ...(imageUrl ? { imageUrl } : {}) })
        .expect(201);
      items[name] = res.body;
    }
    alice = await givenSiwePlayer();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await flaky?.close();
    await chain?.stop();
  });

  it('refuses an unknown or disabled blockchain, a user without an EVM wallet and an empty avatar with 400', async () => {
    expect((await mint(alice.user.auth, 'mainnet')).body).toMatchObject({ code: 10002, error: 'unknown_blockchain' });
    expect((await mint(alice.user.auth, 'off')).body.error).toBe('unknown_blockchain');
    expect((await mint(alice.user.auth, '')).body.error).toBe('validation_failed');

    const passwordUser: TestUser = await givenUser(t, tenant);
    expect((await mint(passwordUser.auth, 'local')).body.error).toBe('no_suitable_wallet');
    // a zkLogin wallet is a Sui address: it cannot hold an EVM token
    await t.dataSource.query(`INSERT INTO wallets (tenant_id, user_id, provider, chain, address) VALUES ($1, $2, 'providerA', 'sui', $3)`, [
      tenant.id,
      passwordUser.userId,
      `0x${'ab'.repeat(32)}`,
    ]);
    expect((await mint(passwordUser.auth, 'local')).body.error).toBe('no_suitable_wallet');

    const empty = await t
      .http()
      .post('/v1/user/auth/siwe/login')
      .set('X-Tenant-Id', tenant.id)
      .send(await siweLogin(t, Wallet.createRandom()));
    expect((await mint(`Bearer ${empty.body.sessionToken}`, 'local')).body.error).toBe('avatar_empty');
    expect((await t.http().post(inv('/avatar/mint')).set('X-Tenant-Id', tenant.id).send({ blockchain: 'local' })).status).toBe(401);
  });

  it("mints to the user's wallet; the token URI serves the avatar metadata; the avatar shows the mint status", async () => {
    const before = await mintJobs();
    const nonceBefore = await minterNonce();
    const res = await mint(alice.user.auth, 'local');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({});
    const queued = await avatarOf(alice.user.userId);
    expect(queued.mint).toMatchObject({
      status: 'pending',
      blockchain: 'local',
      chainId: 31337,
      recipient: alice.wallet.address,
      avatarVersion: 1,
      txHash: null,
    });

    expect(await worker().runOnce()).toBe(1);
    const done = await avatarOf(alice.user.userId);
    expect(done.mint).toMatchObject({ status: 'minted', error: null, attempts: 1 });
    expect(done.mint.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await minterNonce()).toBe(nonceBefore + 1);
    expect(changes(before, await mintJobs())).toEqual({ requested: 1, sending: 1, minted: 1, retry: 0, failed: 0 });

    const tokenId: string = done.mint.tokenId;
    expect(await ownerOf(tokenId)).toBe(alice.wallet.address);
    const receipt = await chain.provider.getTransactionReceipt(done.mint.txHash);
    expect(receipt?.status).toBe(1);
    const tokenUri = (await chain.contract.getFunction('tokenURI')(BigInt(tokenId))) as string;
    expect(tokenUri).toBe(done.mint.metadataUrl);
    expect(tokenUri.startsWith(`${BASE}/v1/community/${community.id}/inventory/nft/${tenant.id}/`)).toBe(true);

    // fetched like a marketplace would: no tenant header, no session (two tenants exist)
    const meta = await t.http().get(tokenUri.slice(BASE.length));
    expect(meta.status).toBe(200);
    expect(meta.body).toEqual({
      name: expect.stringContaining('Space Pirates'),
      description: expect.stringContaining('version 1'),
      image: 'https://cdn.example.com/hat.png',
      attributes: [
        { trait_type: 'Body', value: 'coat' },
        { trait_type: 'Head', value: 'hat' },
      ],
    });
    expect(
      (await t.http().get(`/v1/community/${community.id}/inventory/nft/${tenant.id}/00000000-0000-4000-8000-000000000000`)).body.error,
    ).toBe('mint_not_found');

    const notes: { data: { mintId: string; status: string } }[] = await t.dataSource.query(
      `SELECT data FROM notifications WHERE user_id = $1 AND type = 'mint_finished'`,
      [alice.user.userId],
    );
    expect(notes.map((n) => n.data)).toEqual([
      expect.objectContaining({ mintId: done.mint.id, status: 'minted', txDigest: done.mint.txHash }),
    ]);

    // The outbox's avatar.minted event (its payload against the published schema).
    const events: { payload: Record<string, unknown> }[] = await t.dataSource.query(
      `SELECT payload FROM outbox_events WHERE tenant_id = $1 AND type = 'avatar.minted'`,
      [tenant.id],
    );
    expect(events.map((e) => e.payload)).toEqual([
      {
        mintId: done.mint.id,
        communityId: community.id,
        userId: alice.user.userId,
        blockchain: 'local',
        tokenId,
        txHash: done.mint.txHash,
      },
    ]);
    expect(eventValidators().payload['avatar.minted'](events[0].payload)).toBe(true);
  });

  it('mints one token per avatar version: the same version again is 409, a changed avatar mints a new token', async () => {
    expect((await mint(alice.user.auth, 'local')).body).toMatchObject({ code: 50005, error: 'avatar_already_minted' });
    expect(await worker().runOnce()).toBe(0);

    await allocate(alice.user.auth, [{ slotId: 'body', itemId: items.cape.id }]);
    expect((await mint(alice.user.auth, 'local')).status).toBe(201);
    await worker().runOnce();
    const av = await avatarOf(alice.user.userId);
    expect(av.version).toBe(2);
    expect(av.mints.map((m: { avatarVersion: number; status: string }) => [m.avatarVersion, m.status])).toEqual([
      [2, 'minted'],
      [1, 'minted'],
    ]);
    expect(av.mints[0].tokenId).not.toBe(av.mints[1].tokenId);
    expect(await balanceOf(alice.wallet.address)).toBe(2);
    const meta = await t.http().get(av.mints[0].metadataUrl.slice(BASE.length));
    expect(meta.body.attributes).toEqual([
      { trait_type: 'Body', value: 'cape' },
      { trait_type: 'Head', value: 'hat' },
    ]);
    // the first token's metadata still shows version 1
    expect((await t.http().get(av.mints[1].metadataUrl.slice(BASE.length))).body.attributes[0]).toEqual({
      trait_type: 'Body',
      value: 'coat',
    });
  });

  it("the contract refuses a second token with a job's token id", async () => {
    const av = await avatarOf(alice.user.userId);
    const resend = chain.minter.sendTransaction({
      to: chain.contractAddress,
      data: mintCalldata(alice.wallet.address, av.mints[0].tokenId, 'x'),
    });
    await expect(resend).rejects.toThrow(/ERC721InvalidSender|revert/);
  });

  it('does not mint twice when the worker dies after sending and before recording (signed transaction stored)', async () => {
    const bob = await givenSiwePlayer();
    await mint(bob.user.auth, 'local').expect(201);
    const w = worker() as unknown as { markMinted: (...args: unknown[]) => Promise<void> };
    w.markMinted = async () => {
      delete (w as Partial<typeof w>).markMinted;
      throw new Error('process killed');
    };
    const nonceBefore = await minterNonce();
    await worker().runOnce();
    const [row]: { id: string; status: string; raw_tx: string | null; tx_hash: string; token_id: string }[] = await t.dataSource.query(
      'SELECT * FROM avatar_mints WHERE user_id = $1',
      [bob.user.userId],
    );
    // the token is on chain, the job does not know it
    expect(row.status).not.toBe('minted');
    expect(row.raw_tx).toMatch(/^0x/);
    expect(await ownerOf(row.token_id)).toBe(bob.wallet.address);
    // what a crash leaves: a claimed job whose lease runs out
    await t.dataSource.query(`UPDATE avatar_mints SET status = 'sending', last_error = NULL, next_attempt_at = $2 WHERE id = $1`, [
      row.id,
      new Date(t.clock.now().getTime() + 65_000),
    ]);
    expect(await worker().runOnce()).toBe(0);
    t.clock.advance(66_000);

    expect(await worker().runOnce()).toBe(1);
    const av = await avatarOf(bob.user.userId);
    expect(av.mint).toMatchObject({ status: 'minted', txHash: row.tx_hash, attempts: 2 });
    expect(await balanceOf(bob.wallet.address)).toBe(1);
    expect(await minterNonce()).toBe(nonceBefore + 1);
  });

  it('does not mint twice when a transaction went out but nothing of it was recorded', async () => {
    const carol = await givenSiwePlayer();
    await mint(carol.user.auth, 'local').expect(201);
    const [row]: { id: string; token_id: string; token_uri: string }[] = await t.dataSource.query(
      'SELECT id, token_id, token_uri FROM avatar_mints WHERE user_id = $1',
      [carol.user.userId],
    );
    // a previous worker sent the job's transaction and died before writing anything
    const sent = await chain.minter.sendTransaction({
      to: chain.contractAddress,
      data: mintCalldata(carol.wallet.address, row.token_id, row.token_uri),
    });
    await sent.wait();
    const nonceBefore = await minterNonce();

    expect(await worker().runOnce()).toBe(1);
    const av = await avatarOf(carol.user.userId);
    expect(av.mint).toMatchObject({ status: 'minted', txHash: sent.hash });
    expect(await minterNonce()).toBe(nonceBefore);
    expect(await balanceOf(carol.wallet.address)).toBe(1);
  });

  it('retries transient RPC errors with backoff and then mints', async () => {
    const dave = await givenSiwePlayer();
    const before = await mintJobs();
    await mint(dave.user.auth, 'flaky').expect(201);
    flaky.failNext(1000);
    expect(await worker().runOnce()).toBe(1);
    let av = await avatarOf(dave.user.userId);
    expect(av.mint).toMatchObject({ status: 'pending', attempts: 1, txHash: null });
    expect(av.mint.error).toMatch(/503|server|Service Unavailable|upstream/i);
    flaky.failNext(0);
    expect(await worker().runOnce()).toBe(0); // backing off
    t.clock.advance(5_000);
    expect(await worker().runOnce()).toBe(1);
    av = await avatarOf(dave.user.userId);
    expect(av.mint).toMatchObject({ status: 'minted', attempts: 2 });
    expect(await ownerOf(av.mint.tokenId)).toBe(dave.wallet.address);
    expect(changes(before, await mintJobs())).toEqual({ requested: 1, sending: 2, minted: 1, retry: 1, failed: 0 });
  });

  it('marks a mint that cannot succeed as failed, notifies, and lets the user request it again', async () => {
    const erin = await givenSiwePlayer();
    const before = await mintJobs();
    await mint(erin.user.auth, 'stranger').expect(201);
    await worker().runOnce();
    const av = await avatarOf(erin.user.userId);
    expect(av.mint).toMatchObject({ status: 'failed', attempts: 1, txHash: null });
    expect(av.mint.error).toBeTruthy();
    const notes: { data: { status: string } }[] = await t.dataSource.query(
      `SELECT data FROM notifications WHERE user_id = $1 AND type = 'mint_finished'`,
      [erin.user.userId],
    );
    expect(notes.map((n) => n.data.status)).toEqual(['failed']);
    // the same version may be requested again after a failure: the same job is queued again
    expect((await mint(erin.user.auth, 'stranger')).status).toBe(201);
    const again = await avatarOf(erin.user.userId);
    expect(again.mints).toHaveLength(1);
    expect(again.mint).toMatchObject({ id: av.mint.id, status: 'pending', attempts: 0 });
    expect(changes(before, await mintJobs())).toEqual({ requested: 2, sending: 1, minted: 0, retry: 0, failed: 1 });
  });
});

describe('inventory: the mint worker runs by itself', () => {
  let chain: TestChain;
  let t: TestApp;

  beforeAll(async () => {
    chain = await startTestChain({ node });
    t = await createTestApp({
      MINT_POLL_INTERVAL_MS: '50',
      PUBLIC_BASE_URL: BASE,
      BLOCKCHAINS: JSON.stringify({
        local: { rpcUrl: chain.rpcUrl, chainId: 31337, contractAddress: chain.contractAddress, minterKey: HARDHAT_KEYS[0] },
      }),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('sends a queued mint without being called, and several instances of a request never double-mint', async () => {
    const tenant = await t.givenTenant();
    await t.dataSource.query(`UPDATE tenants SET settings = settings || $2::jsonb WHERE id = $1`, [
      tenant.id,
      JSON.stringify({ siweAllowedOrigins: ['https://game.example.com'] }),
    ]);
    const c = await t.http().post('/v1/admin/communities').set('X-Api-Key', tenant.apiKey).send({ slug: 'crew', name: 'Crew' }).expect(201);
    await t
      .http()
      .post('/v1/admin/inventory/slots')
      .set('X-Api-Key', tenant.apiKey)
      .send({ communityId: c.body.id, key: 'head', name: 'Head' })
      .expect(201);
    const item = await t
      .http()
      .post('/v1/admin/inventory/items')
      .set('X-Api-Key', tenant.apiKey)
      .send({ communityId: c.body.id, slotId: 'head', name: 'hat' })
      .expect(201);
    const wallet = Wallet.createRandom();
    const login = await t
      .http()
      .post('/v1/user/auth/siwe/login')
      .set('X-Tenant-Id', tenant.id)
      .send(await siweLogin(t, wallet))
      .expect(200);
    const auth = `Bearer ${login.body.sessionToken}`;
    await t
      .http()
      .post('/v1/admin/inventory/grants')
      .set('X-Api-Key', tenant.apiKey)
      .send({ userId: login.body.userId, itemId: item.body.id, reason: 'test' })
      .expect(201);
    await t
      .http()
      .post(`/v1/community/crew/inventory/slots/allocate`)
      .set('Authorization', auth)
      .send({ slots: [{ slotId: 'head', itemId: item.body.id }] })
      .expect(201);

    const results = await Promise.all(
      [1, 2, 3].map(() =>
        t.http().post('/v1/community/crew/inventory/avatar/mint').set('Authorization', auth).send({ blockchain: 'local' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);

    const deadline = Date.now() + 30_000;
    let mint: { status: string; tokenId: string } | null = null;
    while (Date.now() < deadline) {
      mint = (await t.http().get(`/v1/community/crew/inventory/avatar?userId=${login.body.userId}`).set('X-Tenant-Id', tenant.id)).body
        .mint;
      if (mint?.status === 'minted') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(mint?.status).toBe('minted');
    expect(await chain.contract.getFunction('ownerOf')(BigInt(mint!.tokenId))).toBe(wallet.address);
    expect(Number(await chain.contract.getFunction('balanceOf')(wallet.address))).toBe(1);
  });
});
