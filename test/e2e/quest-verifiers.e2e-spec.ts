import { Contract, ContractFactory, Wallet, type HDNodeWallet } from 'ethers';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { verifyWebhookSignature } from '../../src/integrations/webhook-signature.js';
import { siweLogin } from '../helpers/auth.js';
import { adminApi, givenCommunity, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { compileContract, startTestChain, type TestChain } from '../helpers/chain.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { startPartnerStandIn, startPlatformStandIn, type PartnerStandIn, type PlatformStandIn } from '../helpers/platform-standins.js';
import { balanceOf, givenPlayableQuest, play } from '../helpers/quest-play.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The kinds checked against other systems (issue 47), each against a real counterpart on this
 * machine: local servers implementing Discord's and X's documented endpoints, a partner endpoint,
 * and the Hardhat chain with an ERC-20 and the avatar ERC-721. And the ways they fail: a role
 * missing, a balance short, a partner's 400, a timeout, an oversized or hostile answer.
 */
describe('quest tasks checked against other systems', () => {
  let t: TestApp;
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string };
  let platforms: PlatformStandIn;
  let partner: PartnerStandIn;
  let chain: TestChain;
  let token: Contract;
  const rewards = () => [{ type: 'resource', resourceTypeId: xp.id, amount: 5 }];

  beforeAll(async () => {
    [platforms, partner, chain] = await Promise.all([startPlatformStandIn(), startPartnerStandIn(), startTestChain()]);
    const compiled = compileContract('test/chain/QuestToken.sol', 'QuestToken');
    const deployed = await new ContractFactory(compiled.abi, compiled.bytecode, chain.minter).deploy();
    await deployed.waitForDeployment();
    token = new Contract(await deployed.getAddress(), compiled.abi, chain.minter);
    t = await createTestApp({
      QUEST_EVENT_WORKER_ENABLED: 'false',
      MINT_WORKER_ENABLED: 'false',
      DISCORD_API_BASE_URL: platforms.discordUrl,
      X_API_BASE_URL: platforms.xUrl,
      QUEST_CHAINS: JSON.stringify({ local: { rpcUrl: chain.rpcUrl, chainId: chain.chainId } }),
      QUEST_VERIFIER_TIMEOUT_MS: '500',
      QUEST_VERIFIER_CACHE_MS: '0',
      QUEST_CLAIMS_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    tenant = await t.givenTenant();
    await t.app.get(TenantsService).updateSettings(tenant.id, { siweAllowedOrigins: ['https://game.example.com'] });
    c = await givenCommunity(t, tenant);
    xp = await givenResourceType(t, tenant, c.id);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([platforms?.close(), partner?.close(), chain?.stop()]);
  });

  const link = (u: TestUser, accountType: string, subjectId: string) =>
    t.http().post('/v1/user/socials').set('Authorization', u.auth).send({ accountType, subjectId, public: true }).expect(201);
  const missingOf = async (u: TestUser, questId: string) => {
    const r = await play(t, u, questId).claim();
    expect(r.status).toBe(200);
    return { completed: r.body.completed as boolean, missing: r.body.tasks[0].missing as string | null };
  };
  let snowflake = 100_000_000;
  const nextId = () => String(++snowflake);

  describe('social: Discord guild and role', () => {
    it('needs the linked account, the community credential, membership and the role', async () => {
      const guild = nextId();
      const role = nextId();
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'social', social: { accountType: 'discord', discordGuildId: guild, discordRoleId: role } },
      ]);
      const u = await givenUser(t, tenant);
      expect(await missingOf(u, q.id)).toEqual({ completed: false, missing: 'Link a discord account first' });
      const discordId = nextId();
      await link(u, 'discord', discordId);
      expect((await missingOf(u, q.id)).missing).toMatch(/not set up its Discord check/);
      const api = adminApi(t, tenant);
      await t
        .http()
        .put(`/v1/admin/communities/${c.id}/quest-platforms/discord`)
        .set('X-Api-Key', tenant.apiKey)
        .send({ token: platforms.discordToken })
        .expect(204);
      expect((await missingOf(u, q.id)).missing).toMatch(/Join the Discord server/);
      platforms.members.set(guild, new Map([[discordId, ['999']]]));
      expect((await missingOf(u, q.id)).missing).toMatch(/role/);
      platforms.members.get(guild)!.set(discordId, ['999', role]);
      expect(await missingOf(u, q.id)).toEqual({ completed: true, missing: null });
      expect(await balanceOf(t, u.userId, xp.id)).toMatchObject({ earned: 5 });
      // the stand-in saw the documented call with the bot token
      expect(platforms.requests.at(-1)).toMatchObject({
        method: 'GET',
        path: `/api/v10/guilds/${guild}/members/${discordId}`,
        headers: { authorization: `Bot ${platforms.discordToken}` },
      });
      void api;
    });

    it('says "try again" when Discord hangs past the timeout or refuses the token, and never credits', async () => {
      const guild = nextId();
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'social', social: { accountType: 'discord', discordGuildId: guild } },
      ]);
      const u = await givenUser(t, tenant);
      const discordId = nextId();
      await link(u, 'discord', discordId);
      platforms.members.set(guild, new Map([[discordId, []]]));
      platforms.delayMs = 2_000;
      try {
        const started = Date.now();
        expect((await missingOf(u, q.id)).missing).toMatch(/did not answer/);
        expect(Date.now() - started).toBeLessThan(1_900);
      } finally {
        platforms.delayMs = 0;
      }
      await t
        .http()
        .put(`/v1/admin/communities/${c.id}/quest-platforms/discord`)
        .set('X-Api-Key', tenant.apiKey)
        .send({ token: 'a-revoked-token' })
        .expect(204);
      expect((await missingOf(u, q.id)).missing).toMatch(/answered 401/);
      await t
        .http()
        .put(`/v1/admin/communities/${c.id}/quest-platforms/discord`)
        .set('X-Api-Key', tenant.apiKey)
        .send({ token: platforms.discordToken })
        .expect(204);
      expect((await missingOf(u, q.id)).completed).toBe(true);
    });
  });

  describe('social: X follows', () => {
    it('finds the account among the follows, over pages', async () => {
      const followed = nextId();
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'social', social: { accountType: 'x', xFollowsUserId: followed } },
      ]);
      const u = await givenUser(t, tenant);
      const xId = nextId();
      await link(u, 'x', xId);
      await t
        .http()
        .put(`/v1/admin/communities/${c.id}/quest-platforms/x`)
        .set('X-Api-Key', tenant.apiKey)
        .send({ token: platforms.xToken })
        .expect(204);
      platforms.follows.set(
        xId,
        Array.from({ length: 1500 }, (_, i) => String(5_000_000 + i)),
      );
      expect((await missingOf(u, q.id)).missing).toMatch(/Follow the account/);
      platforms.follows.get(xId)!.push(followed); // the 1,501st: on the second page
      expect((await missingOf(u, q.id)).completed).toBe(true);
      expect(platforms.requests.filter((r) => r.path.startsWith(`/2/users/${xId}/following`)).at(-1)!.path).toMatch(
        /pagination_token=1000/,
      );
    });
  });

  describe('onchain', () => {
    let wallet: HDNodeWallet;
    let player: TestUser;

    beforeAll(async () => {
      wallet = Wallet.createRandom();
      const login = await t
        .http()
        .post('/v1/user/auth/siwe/login')
        .set('X-Tenant-Id', tenant.id)
        .send(await siweLogin(t, wallet))
        .expect(200);
      player = { ...login.body, username: '', password: '', tenant, auth: `Bearer ${login.body.sessionToken}` } as TestUser;
    });

    it('an ERC-20 balance of at least minBalance', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'onchain', onchain: { chain: 'local', standard: 'erc20', contract: await token.getAddress(), minBalance: '1000' } },
      ]);
      const nobody = await givenUser(t, tenant);
      expect((await missingOf(nobody, q.id)).missing).toMatch(/Ethereum wallet/);
      expect((await missingOf(player, q.id)).missing).toMatch(/Hold at least 1000/);
      await (await token.getFunction('mint')(wallet.address, 999n)).wait();
      expect((await missingOf(player, q.id)).completed).toBe(false);
      await (await token.getFunction('mint')(wallet.address, 1n)).wait();
      expect((await missingOf(player, q.id)).completed).toBe(true);
    });

    it('an ERC-721 balance, and a view call returning what the task asks', async () => {
      const nft = await givenPlayableQuest(t, tenant, c, {}, [
        { kind: 'onchain', onchain: { chain: 'local', standard: 'erc721', contract: chain.contractAddress } },
      ]);
      const call = await givenPlayableQuest(t, tenant, c, {}, [
        {
          kind: 'onchain',
          onchain: {
            chain: 'local',
            standard: 'call',
            contract: chain.contractAddress,
            signature: 'function exists(uint256) view returns (bool)',
            args: ['4242'],
          },
        },
      ]);
      expect((await missingOf(player, nft.id)).completed).toBe(false);
      expect((await missingOf(player, call.id)).completed).toBe(false);
      await (await (chain.contract.connect(chain.minter) as Contract).getFunction('mint')(wallet.address, 4242n, 'ipfs://x')).wait();
      expect((await missingOf(player, nft.id)).completed).toBe(true);
      expect((await missingOf(player, call.id)).completed).toBe(true);
    });

    it('says "try again" when the chain does not answer', async () => {
      const q = await givenPlayableQuest(t, tenant, c, {}, [
        { kind: 'onchain', onchain: { chain: 'local', standard: 'erc20', contract: await token.getAddress(), minBalance: '1' } },
      ]);
      const other = await createTestApp({
        QUEST_CHAINS: JSON.stringify({ local: { rpcUrl: 'http://127.0.0.1:9', chainId: 31337 } }),
        DATABASE_URL: t.config.DATABASE_URL!,
        QUEST_VERIFIER_TIMEOUT_MS: '300',
      });
      try {
        const r = await other.http().post(`/v1/quests/${q.id}/claim`).set('Authorization', player.auth).expect(200);
        expect(r.body.tasks[0].missing).toMatch(/did not answer/);
      } finally {
        await other.close();
      }
    });
  });

  describe('partner', () => {
    it('posts the player signed as webhooks are; 200 is done, a 400 says why, a timeout or a 500 is "try again"', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'partner', partner: { url: partner.url, timeoutMs: 300 } },
      ]);
      const secret = q.tasks[0].secret!;
      expect(secret).toMatch(/^whsec_/);
      const u = await givenUser(t, tenant);
      await link(u, 'discord', nextId());
      partner.respond = () => ({ status: 400, body: JSON.stringify({ message: 'Reach level 10 first' }) });
      expect((await missingOf(u, q.id)).missing).toBe('Reach level 10 first');
      const sent = partner.received.at(-1)!;
      expect(
        verifyWebhookSignature(
          secret,
          sent.headers['x-cgs-signature'] as string,
          sent.headers['x-cgs-timestamp'] as string,
          sent.body,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(true);
      expect(JSON.parse(sent.body)).toMatchObject({
        type: 'quest.task_verification',
        questId: q.id,
        taskId: q.tasks[0].id,
        user: { id: u.userId, handle: u.username },
        socials: [{ accountType: 'discord' }],
      });
      partner.respond = () => ({ status: 200, delayMs: 1_000 });
      expect((await missingOf(u, q.id)).missing).toMatch(/did not answer/);
      partner.respond = () => ({ status: 500 });
      expect((await missingOf(u, q.id)).missing).toMatch(/answered 500/);
      // a hostile answer: a huge body, a message that is not text
      partner.respond = () => ({ status: 404, body: JSON.stringify({ message: { nested: 'x'.repeat(100_000) } }) });
      expect((await missingOf(u, q.id)).missing).toBe('The partner says this is not done yet');
      partner.respond = () => ({ status: 422, body: 'x'.repeat(200_000) });
      expect((await missingOf(u, q.id)).missing).toBe('The partner says this is not done yet');
      expect(await balanceOf(t, u.userId, xp.id)).toMatchObject({ earned: 0 });
      partner.respond = () => ({ status: 200, body: '{}' });
      expect((await missingOf(u, q.id)).completed).toBe(true);
    });

    it('refuses a partner URL into the private network without WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
      const strict = await createTestApp({ DATABASE_URL: t.config.DATABASE_URL!, QUEST_VERIFIER_TIMEOUT_MS: '300' });
      try {
        const q = await givenPlayableQuest(t, tenant, c, {}, [{ kind: 'partner', partner: { url: partner.url } }]);
        const u = await givenUser(t, tenant);
        const before = partner.received.length;
        const r = await strict.http().post(`/v1/quests/${q.id}/claim`).set('Authorization', u.auth).expect(200);
        expect(r.body.tasks[0].missing).toMatch(/did not answer/);
        expect(partner.received.length).toBe(before);
      } finally {
        await strict.close();
      }
    });
  });
});
