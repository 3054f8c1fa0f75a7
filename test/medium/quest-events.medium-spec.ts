import { BindScopedScoreTypes1795802725159 } from '../../migrations/1795802725159-BindScopedScoreTypes.js';
import { CommunitiesService } from '../../src/communities/communities.service.js';
import { InventoryService } from '../../src/inventory/inventory.service.js';
import { ParticipationModule } from '../../src/participation/participation.module.js';
import { ParticipationService } from '../../src/participation/participation.service.js';
import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import { QuestEventsModule } from '../../src/quest-events/quest-events.module.js';
import { QuestEventsService } from '../../src/quest-events/quest-events.service.js';
import { RewardsService } from '../../src/quest-events/rewards.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, givenUser, inRolledBackTransaction, numbers, uniqueName } from './fixtures.js';

const HOUR = 3_600_000;

/**
 * Quest events on the real database: management (create, update, cancel), their rewards and
 * claims, and the participant lifecycle around them (ParticipationModule brings the events module).
 * The fake clock moves events through their statuses.
 */
describe('QuestEventsService, RewardsService, ParticipationService (medium: ParticipationModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let events: QuestEventsService;
  let rewards: RewardsService;
  let participation: ParticipationService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [ParticipationModule, TenantsModule, UsersModule] });
    events = t.get(QuestEventsService);
    rewards = t.get(RewardsService);
    participation = t.get(ParticipationService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());
  afterEach(() => t.clock.reset());

  /** Registration open now (for 2 h), the event from +1 h to +3 h. */
  const times = () => {
    const now = t.clock.now().getTime();
    return {
      registrationStartsAt: new Date(now - HOUR),
      registrationEndsAt: new Date(now + 2 * HOUR),
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 3 * HOUR),
    };
  };
  const givenEvent = async (communityId: string, extra: Record<string, unknown> = {}) =>
    events.create(tenantId, { communityId, slug: uniqueName('ev'), name: 'Cup', ...times(), ...extra });
  const scopedType = async (communityId: string) =>
    (await t.get(ResourcesService).createType(tenantId, { communityId, slug: uniqueName('s'), name: 'Score', kind: 'scoped' })).id;
  const member = async (communityId: string) => {
    const userId = await givenUser(t, tenantId);
    await t.get(CommunitiesService).join(tenantId, communityId, userId, '');
    return userId;
  };

  it('update changes every given field of a draft, publishes it, and binds a scoped score type; the read-back matches', async () => {
    const community = await givenCommunity(t, tenantId);
    const draft = await givenEvent(community, { publish: false });
    expect(draft.status).toBe('draft');
    const score = await scopedType(community);
    const now = t.clock.now().getTime();
    const changed = await events.update(tenantId, draft.slug, {
      name: 'Summer cup',
      description: 'Hot',
      imageUrl: 'https://img.example/cup.png',
      features: ['pvp', 'solo'],
      registrationStartsAt: new Date(now - 2 * HOUR),
      registrationEndsAt: new Date(now + HOUR),
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 4 * HOUR),
      capacity: 10,
      scoreResourceTypeId: score.toUpperCase(),
      minScore: 5,
      maxRank: 3,
      publish: true,
    });
    expect(changed).toMatchObject({
      name: 'Summer cup',
      description: 'Hot',
      imageUrl: 'https://img.example/cup.png',
      features: ['pvp', 'solo'],
      status: 'registration_open',
      capacity: 10,
      scoreResourceTypeId: score,
      completionRule: { minScore: 5, maxRank: 3 },
    });
    // Read back by id (a uuid) and by slug: the same stored event.
    expect(await events.getAdmin(tenantId, draft.id)).toEqual(await events.getAdmin(tenantId, draft.slug.toUpperCase()));
    expect((await events.getAdmin(tenantId, draft.id)).endsAt).toBe(new Date(now + 4 * HOUR).toISOString());
  });

  it('update refuses times out of order, a capacity below the registered participants, and any change once cancelled', async () => {
    const community = await givenCommunity(t, tenantId);
    const e = await givenEvent(community, { capacity: 5 });
    const now = t.clock.now().getTime();
    expect(await domainErrorOf(events.update(tenantId, e.id, { endsAt: new Date(now + HOUR / 2) }))).toBe('invalid_quest_event');
    await participation.register(tenantId, await member(community), e.id);
    expect(await domainErrorOf(events.update(tenantId, e.id, { capacity: 0 }))).toBe('invalid_quest_event');
    // Unlimited (null) is always allowed.
    expect((await events.update(tenantId, e.id, { capacity: null })).capacity).toBeNull();

    expect((await events.cancel(tenantId, e.id)).status).toBe('cancelled');
    expect(await domainErrorOf(events.cancel(tenantId, e.id))).toBe('quest_event_state');
    expect(await domainErrorOf(events.update(tenantId, e.id, { name: 'Again' }))).toBe('quest_event_state');
    expect((await events.getAdmin(tenantId, e.id)).name).toBe('Cup');
  });

  it('create refuses a uuid-like slug and a slug the tenant has; binds a score type at creation; a draft is hidden from users', async () => {
    const community = await givenCommunity(t, tenantId);
    const base = { communityId: community, name: 'Cup', ...times() };
    expect(await domainErrorOf(events.create(tenantId, { ...base, slug: '00000000-0000-4000-8000-000000000000' }))).toBe(
      'invalid_quest_event',
    );
    const first = await givenEvent(community);
    expect(await domainErrorOf(events.create(tenantId, { ...base, slug: first.slug }))).toBe('quest_event_slug_taken');

    const score = await scopedType(community);
    const scored = await givenEvent(community, { scoreResourceTypeId: score, publish: false });
    expect(scored.scoreResourceTypeId).toBe(score);
    expect(await domainErrorOf(events.getForUser(tenantId, await givenUser(t, tenantId), scored.id))).toBe('quest_event_not_found');
    // An event without a score type has an empty leaderboard.
    expect(await events.leaderboard(tenantId, first.slug, { page: 1, limit: 10, offset: 0 })).toMatchObject({ items: [], total: 0 });
  });

  it('participation: an event without a score type ranks nobody; a cancel there revokes nothing; sync on a cancelled event is refused', async () => {
    const community = await givenCommunity(t, tenantId);
    const e = await givenEvent(community);
    const [ann, bob] = [await member(community), await member(community)];
    await participation.register(tenantId, ann, e.id);
    await participation.register(tenantId, bob, e.id);
    expect(await participation.rank(tenantId, ann, e.slug)).toMatchObject({ rank: null, score: 0, totalRanked: 0, status: 1 });
    expect((await participation.cancel(tenantId, ann, e.id)).statusName).toBe('CANCELLED');
    expect(await numbers(t.dataSource, 'SELECT registered_count AS n FROM quest_events WHERE id = $1', [e.id])).toEqual({ n: 1 });

    await events.cancel(tenantId, e.id);
    expect(await domainErrorOf(participation.sync(tenantId, bob, e.id))).toBe('event_already_ended');
    // Unregistering after the event is over is "ended", not "started".
    expect(await domainErrorOf(participation.unregister(tenantId, bob, e.id))).toBe('event_already_ended');
  });

  it('rewards: refused on a cancelled event, for rankFrom > rankTo and for another community; a claim needs its data and a valid allocation id', async () => {
    const community = await givenCommunity(t, tenantId);
    const other = await givenCommunity(t, tenantId);
    const score = await scopedType(community);
    const e = await givenEvent(community, { scoreResourceTypeId: score });
    const gems = (
      await t.get(ResourcesService).createType(tenantId, { communityId: community, slug: uniqueName('g'), name: 'Gems', kind: 'global' })
    ).id;
    const foreignGems = (
      await t.get(ResourcesService).createType(tenantId, { communityId: other, slug: uniqueName('g'), name: 'Gems', kind: 'global' })
    ).id;
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId: other, key: uniqueName('k'), name: 'Head' });
    const foreignItem = await inventory.createItem(tenantId, { communityId: other, slotId: slot.key, name: 'Hat' });

    expect(await domainErrorOf(rewards.createReward(tenantId, e.id, { name: 'R', kind: 'manual', rankFrom: 3, rankTo: 1 }))).toBe(
      'invalid_reward',
    );
    expect(await domainErrorOf(rewards.createReward(tenantId, e.id, { name: 'R', kind: 'resource', resourceTypeId: foreignGems }))).toBe(
      'invalid_reward',
    );
    expect(await domainErrorOf(rewards.createReward(tenantId, e.id, { name: 'R', kind: 'item', itemId: foreignItem.id }))).toBe(
      'invalid_reward',
    );
    const reward = await rewards.createReward(tenantId, e.id, {
      name: 'Gems pack',
      kind: 'resource',
      resourceTypeId: gems.toUpperCase(),
      amount: 30,
      requiresEmail: true,
      rankFrom: 1,
      rankTo: 5,
    });
    expect(reward).toMatchObject({ resourceTypeId: gems, amount: 30, tickets: 1, ticketCost: 1, supply: null, rankFrom: 1, rankTo: 5 });
    expect((await rewards.listRewards(tenantId, e.slug)).map((r) => r.id)).toEqual([reward.id]);

    // A registered participant with a score, the event started then closed early: one allocation.
    const ann = await member(community);
    await participation.register(tenantId, ann, e.id);
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: ann, resourceTypeId: score, amount: 12, reason: 'medium-test' });
    t.clock.advance(90 * 60_000);
    const done = await t.get(EventCompletionService).complete(tenantId, e.id, true);
    expect(done).toMatchObject({ completedNow: true, allocationsCreated: 1 });
    // Completed twice: nothing more happens.
    expect(await t.get(EventCompletionService).complete(tenantId, e.id, true)).toMatchObject({
      completedNow: false,
      allocationsCreated: 0,
    });
    expect(await domainErrorOf(rewards.createReward(tenantId, e.id, { name: 'Late', kind: 'manual' }))).toBe('quest_event_state');

    const [allocation] = await rewards.allocations(tenantId, ann, e.id);
    expect(allocation).toMatchObject({ tickets: 1, ticketsSpent: 0, ticketsRemaining: 1, rank: 1 });
    expect(await domainErrorOf(rewards.claim(tenantId, ann, e.id, 'not-a-uuid', {}))).toBe('allocation_not_found');
    expect(await domainErrorOf(rewards.claim(tenantId, ann, e.id, allocation.id, {}))).toBe('claim_requirements');
    const claimed = await rewards.claim(tenantId, ann, e.id, allocation.id, { email: 'ann@example.com' });
    expect(claimed).toMatchObject({ status: 'processed', ticketsSpent: 1, allocation: { ticketsRemaining: 0 } });
    expect(await domainErrorOf(rewards.claim(tenantId, ann, e.id, allocation.id, { email: 'ann@example.com' }))).toBe('not_enough_tickets');
    expect(await t.get(LedgerService).getBalance(t.dataSource.manager, tenantId, ann, gems)).toEqual({ balance: 30, earned: 30 });
  });
  it("a reward's walletChain decides the wallet addresses a claim may give: EVM by default, a zkLogin wallet's Sui address, or either", async () => {
    const community = await givenCommunity(t, tenantId);
    const score = await scopedType(community);
    const e = await givenEvent(community, { scoreResourceTypeId: score });
    const reward = (name: string, walletChain?: 'evm' | 'sui' | 'any') =>
      rewards.createReward(tenantId, e.id, { name, kind: 'manual', tickets: 3, requiresWalletAddress: true, walletChain });
    expect(await reward('Airdrop')).toMatchObject({ requiresWalletAddress: true, walletChain: 'evm' });
    expect(await reward('Sui drop', 'sui')).toMatchObject({ walletChain: 'sui' });
    expect(await reward('Any drop', 'any')).toMatchObject({ walletChain: 'any' });

    const ann = await member(community);
    await participation.register(tenantId, ann, e.id);
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: ann, resourceTypeId: score, amount: 5, reason: 'medium-test' });
    t.clock.advance(90 * 60_000);
    await t.get(EventCompletionService).complete(tenantId, e.id, true);
    const allocation = async (name: string) => (await rewards.allocations(tenantId, ann, e.id)).find((a) => a.reward.name === name)!.id;

    const evm = '0x52908400098527886e0f7030069857d2e4169ee7';
    const sui = '0x' + 'AB'.repeat(32);
    const claim = async (name: string, walletAddress: string) =>
      (await rewards.claim(tenantId, ann, e.id, await allocation(name), { walletAddress })).allocation.requirementData;
    // EVM (the default) refuses a Sui address and keeps an EVM one checksummed.
    expect(await domainErrorOf(claim('Airdrop', sui))).toBe('claim_requirements');
    expect(await claim('Airdrop', evm)).toEqual({ walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    // Sui refuses an EVM address and keeps a Sui one in lower case, as zkLogin wallets are stored.
    expect(await domainErrorOf(claim('Sui drop', evm))).toBe('claim_requirements');
    expect(await claim('Sui drop', sui)).toEqual({ walletAddress: sui.toLowerCase() });
    // An address of neither chain is refused by the service itself (the claim's DTO refuses it too).
    expect(await domainErrorOf(claim('Any drop', '0x' + 'ab'.repeat(25)))).toBe('claim_requirements');
    // Either.
    expect(await claim('Any drop', sui)).toEqual({ walletAddress: sui.toLowerCase() });
    expect(await claim('Any drop', evm)).toEqual({ walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    // The claims keep the whole addresses.
    const stored = await t.dataSource.query<{ wallet_address: string }[]>(
      `SELECT c.wallet_address FROM quest_event_reward_claims c JOIN quest_event_rewards r ON r.id = c.reward_id
        WHERE r.event_id = $1 ORDER BY r.name, c.wallet_address`,
      [e.id],
    );
    expect(stored.map((c) => c.wallet_address)).toEqual([
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0x52908400098527886E0F7030069857D2E4169EE7',
      sui.toLowerCase(),
      sui.toLowerCase(),
    ]);
  });

  it("the users' list filters by open registration either way and by an item reward; an item reward is granted when claimed", async () => {
    const community = await givenCommunity(t, tenantId);
    const open = await givenEvent(community);
    const now = t.clock.now().getTime();
    const later = await givenEvent(community, {
      registrationStartsAt: new Date(now + HOUR),
      registrationEndsAt: new Date(now + 2 * HOUR),
      startsAt: new Date(now + 2 * HOUR),
      endsAt: new Date(now + 3 * HOUR),
    });
    const ann = await member(community);
    const ids = async (q: Record<string, unknown>) =>
      (await events.list(tenantId, ann, { filter: { containerId: community }, ...q })).items.map((e) => e.id);
    expect(await ids({ registrationOpen: true })).toEqual([open.id]);
    expect(await ids({ registrationOpen: false })).toEqual([later.id]);

    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId: community, key: uniqueName('k'), name: 'Head' });
    const crown = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: 'Crown' });
    const score = await scopedType(community);
    await events.update(tenantId, open.id, { scoreResourceTypeId: score });
    const reward = await rewards.createReward(tenantId, open.id, { name: 'Crown', kind: 'item', itemId: crown.id, amount: 2 });
    expect(await ids({ itemId: crown.id.toUpperCase() })).toEqual([open.id]);
    await participation.register(tenantId, ann, open.id);
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: ann, resourceTypeId: score, amount: 3, reason: 'medium-test' });
    t.clock.advance(90 * 60_000);
    await t.get(EventCompletionService).complete(tenantId, open.id, true);
    const [allocation] = await rewards.allocations(tenantId, ann, open.id);
    expect(allocation.reward.id).toBe(reward.id);
    expect(await rewards.claim(tenantId, ann, open.id, allocation.id, {})).toMatchObject({ status: 'processed' });
    expect((await inventory.item(tenantId, community, crown.id)).granted).toBe(2);
    // Completing an event of no tenant is a programming error, not a client's.
    await expect(t.get(EventCompletionService).complete(tenantId, '00000000-0000-4000-8000-00000000beef', true)).rejects.toThrow(
      /No quest event/,
    );
  });

  it('migration BindScopedScoreTypes binds a scoped type that exactly one event scores with and leaves a shared one as it was', async () => {
    const community = await givenCommunity(t, tenantId);
    const [alone, shared, unused, bound] = [
      await scopedType(community),
      await scopedType(community),
      await scopedType(community),
      await scopedType(community),
    ];
    const [e1, e2, e3, e4] = [
      await givenEvent(community),
      await givenEvent(community),
      await givenEvent(community),
      await givenEvent(community),
    ];
    await inRolledBackTransaction(t.dataSource, async (qr) => {
      // As the service used to leave them: score types bound to no event, one of them shared.
      const score = (eventId: string, typeId: string) =>
        qr.query('UPDATE quest_events SET score_resource_type_id = $2 WHERE id = $1', [eventId, typeId]);
      await score(e1.id, alone);
      await score(e2.id, shared);
      await score(e3.id, shared);
      await score(e4.id, bound);
      await qr.query('UPDATE resource_types SET quest_event_id = $2 WHERE id = $1', [bound, e1.id]);
      await new BindScopedScoreTypes1795802725159().up(qr);
      const rows: { id: string; quest_event_id: string | null }[] = await qr.query(
        'SELECT id, quest_event_id FROM resource_types WHERE id = ANY($1::uuid[])',
        [[alone, shared, unused, bound]],
      );
      expect(Object.fromEntries(rows.map((r) => [r.id, r.quest_event_id]))).toEqual({
        [alone]: e1.id,
        [shared]: null,
        [unused]: null,
        [bound]: e1.id,
      });
    });
  });
});

describe('EventCompletionService without the participation module (medium: QuestEventsModule alone)', () => {
  let t: ModuleTest;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [QuestEventsModule, TenantsModule] });
  });
  afterAll(() => t?.close());

  it('completing a started event is refused as a wiring error: no participant scoring is registered, nothing is completed', async () => {
    const tenantId = await givenTenant(t);
    const communityId = await givenCommunity(t, tenantId);
    const now = Date.now();
    const e = await t.get(QuestEventsService).create(tenantId, {
      communityId,
      slug: uniqueName('ev'),
      name: 'Cup',
      registrationStartsAt: new Date(now - 2 * HOUR),
      registrationEndsAt: new Date(now - HOUR),
      startsAt: new Date(now - HOUR),
      endsAt: new Date(now + HOUR),
    });
    await expect(t.get(EventCompletionService).complete(tenantId, e.id, true)).rejects.toThrow(/no participant scoring registered/);
    expect((await t.get(QuestEventsService).getAdmin(tenantId, e.id)).status).toBe('active');
  });
});
