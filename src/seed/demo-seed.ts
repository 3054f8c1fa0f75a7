import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { hashPassword } from '../crypto/hashing.js';
import { AppConfig } from '../config/app-config.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { ParticipantsRepository } from '../participation/participants.repository.js';
import { ParticipationService } from '../participation/participation.service.js';
import { PrizesService } from '../prizes/prizes.service.js';
import type { CreateRewardDto } from '../quest-events/dto/reward.dto.js';
import type { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import { EventCompletionService } from '../quest-events/event-completion.service.js';
import { QuestEventsRepository } from '../quest-events/quest-events.repository.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { RewardsRepository } from '../quest-events/rewards.repository.js';
import { RewardsService } from '../quest-events/rewards.service.js';
import type { CreateQuestDto } from '../quests/dto/quest.dto.js';
import { QuestsRepository } from '../quests/quests.repository.js';
import { QuestsService } from '../quests/quests.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { ResourcesService } from '../resources/resources.service.js';
import { SeasonCloser } from '../seasons/season-closer.js';
import { SeasonsService } from '../seasons/seasons.service.js';
import type { CreateListingDto } from '../store/dto/listing.dto.js';
import type { CreateRequirementDto } from '../requirements/dto/requirement.dto.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import { StorePurchaseService } from '../store/purchase/store-purchase.service.js';
import { StoreListingsService } from '../store/store-listings.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { DEFAULT_RESERVED_HANDLES } from '../users/reserved-handles.js';
import { parseQuestChains } from '../config/quest-chains.config.js';
import { QuestTasksService } from '../quests/tasks/quest-tasks.service.js';
import type { CreateQuestTaskDto } from '../quests/dto/quest-task.dto.js';
import { UsersService } from '../users/users.service.js';
import { SocialsService } from '../socials/socials.service.js';
import { evmChain, WalletsService } from '../wallets/wallets.service.js';
import { withAdvisoryLock } from '../database/advisory-lock.js';
import { DemoLookupsReadModel } from './demo-lookups.read-model.js';

/** What the demo is called; the README's tour relies on these names. */
export const DEMO = {
  tenant: 'demo',
  community: 'pixel-pirates',
  event: 'pirate-cup',
  password: 'demo-password',
  users: ['demo', 'alice', 'bob', 'carol', 'dave'] as const,
} as const;

export interface DemoSummary {
  tenantId: string;
  tenantSlug: string;
  /** Present only when the tenant was created (or its key rotated) by this run: it is stored hashed. */
  apiKey: string | null;
  sharedSecret: string;
  communityId: string;
  communitySlug: string;
  eventSlug: string;
  users: string[];
  password: string;
  /** Things this run made (0 on a re-run of a complete demo). */
  created: number;
}

export interface SeedOptions {
  /** Rotate the API key of an existing demo tenant so it can be shown again. */
  rotateApiKey?: boolean;
  /** One progress line per step. */
  log?: (line: string) => void;
}

const DAY = 86_400_000;
type UserName = (typeof DEMO.users)[number];

/**
 * Creates the demo tenant with a little of everything, through the services (so the data obeys
 * the same rules as the API). Idempotent: every step looks up what it would make (tenant and
 * community by slug, the rest by name or key inside them) and every credit, grant, award and
 * purchase carries an idempotency key, so a second run changes nothing.
 */
export async function seedDemo(app: INestApplicationContext, options: SeedOptions = {}): Promise<DemoSummary> {
  return new DemoSeeder(app, options.log ?? (() => undefined)).run(options);
}

class DemoSeeder {
  private readonly ds: DataSource;
  private readonly lookups: DemoLookupsReadModel;
  private readonly now: Date;
  private created = 0;
  private tenantId = '';

  constructor(
    private readonly app: INestApplicationContext,
    private readonly log: (line: string) => void,
  ) {
    this.ds = app.get<DataSource>(getDataSourceToken());
    this.lookups = new DemoLookupsReadModel(this.ds);
    this.now = app.get(Clock).now();
  }

  private get<T>(type: new (...args: never[]) => T): T {
    return this.app.get(type, { strict: false });
  }

  private at(days: number): Date {
    return new Date(this.now.getTime() + days * DAY);
  }

  /** Finds a row of the tenant (`find` answers its id) or makes it with `make` (counted and logged). */
  private async ensure<R extends { id: string }>(
    find: (tenantId: string) => Promise<string | { id: string } | null>,
    label: string,
    make: () => Promise<R>,
  ): Promise<string> {
    const found = await find(this.tenantId);
    if (found) return typeof found === 'string' ? found : found.id;
    const made = await make();
    this.note(label);
    return made.id;
  }

  async run(options: SeedOptions): Promise<DemoSummary> {
    // One seeder at a time on a database (two instances starting together).
    return withAdvisoryLock(this.ds, 874512, () => this.seed(options));
  }

  private async seed(options: SeedOptions): Promise<DemoSummary> {
    const started = Date.now();
    const tenants = this.get(TenantsService);
    this.log(`Seeding the demo tenant "${DEMO.tenant}"...`);

    // ---- tenant
    let apiKey: string | null = null;
    let sharedSecret: string;
    const existing = await tenants.findByRef(DEMO.tenant);
    if (existing) {
      this.tenantId = existing.id;
      sharedSecret = await tenants.sharedSecret(existing);
      if (options.rotateApiKey) apiKey = (await tenants.rotate(existing.id, { apiKey: true })).apiKey ?? null;
      this.log(`  tenant ${DEMO.tenant} exists (${existing.id})${apiKey ? ', API key rotated' : ''}`);
    } else {
      // The default reserved handles without the tenant's own name: its first player is `demo`.
      const creds = await tenants.create({ slug: DEMO.tenant, name: 'Demo', settings: { reservedHandles: [...DEFAULT_RESERVED_HANDLES] } });
      this.tenantId = creds.id;
      apiKey = creds.apiKey;
      sharedSecret = creds.sharedSecret;
      this.created++;
      this.log(`  tenant ${DEMO.tenant} created (${creds.id})`);
    }
    const tenantId = this.tenantId;

    // ---- community and resources
    const communities = this.get(CommunitiesService);
    const communityId = await this.ensure(
      (t) => this.lookups.communityBySlug(t, DEMO.community),
      `community ${DEMO.community}`,
      () =>
        communities.create(tenantId, {
          slug: DEMO.community,
          name: 'Pixel Pirates',
          description: 'A demo community: quests, a cup, a store and a leaderboard to explore.',
          links: [{ label: 'Website', url: 'https://example.com/pixel-pirates' }],
        }),
    );
    const resources = this.get(ResourcesService);
    const resourceType = (slug: string, name: string, kind: 'global' | 'scoped', questEventId?: string) =>
      this.ensure(
        (t) => this.lookups.resourceTypeBySlug(t, communityId, slug),
        `${kind} resource ${slug}`,
        () =>
          resources.createType(tenantId, {
            communityId,
            slug,
            name,
            kind,
            questEventId,
            description: kind === 'global' ? 'Earned by quests; ranks the community leaderboard.' : 'Score of one quest event.',
          }),
      );
    const xp = await resourceType('xp', 'Experience points', 'global');

    this.progress('community and XP');

    // ---- users (password logins), members of the community; demo refers the others
    const users = await this.ensureUsers();
    for (const name of DEMO.users) {
      const joined = await communities.join(tenantId, communityId, users[name], name === 'demo' ? '' : 'demo');
      if (joined.created) {
        this.note(`${name} joined`);
      }
    }

    // ---- what support looks up on the demo player: a linked Discord account (with a token, which
    // the management read never shows) and a SIWE wallet
    const socials = this.get(SocialsService);
    if ((await socials.listSocials(tenantId, users.demo)).length === 0) {
      await socials.linkSocial(tenantId, users.demo, {
        accountType: 'discord',
        subjectId: '80351110224678912',
        handle: 'demo_pirate',
        public: true,
        userToken: 'demo-discord-access-token',
      });
      this.note('demo linked discord');
    }
    await this.ds.transaction((em) =>
      this.get(WalletsService).ensure(em, {
        tenantId,
        userId: users.demo,
        provider: 'siwe',
        chain: evmChain(1),
        address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
      }),
    );

    this.progress('users and memberships');

    // ---- inventory: slots, items, grants, an equipped avatar
    const inventory = this.get(InventoryService);
    const slot = (key: string, name: string, position: number) =>
      this.ensure(
        (t) => this.lookups.inventorySlotByKey(t, communityId, key),
        `inventory slot ${key}`,
        () => inventory.createSlot(tenantId, { communityId, key, name, position }),
      );
    await slot('head', 'Head', 1);
    await slot('body', 'Body', 2);
    await slot('background', 'Background', 0);
    const item = (slotKey: string, name: string, rarity: string, supply?: number) =>
      this.ensure(
        (t) => this.lookups.inventoryItemByName(t, communityId, name),
        `item ${name}`,
        () =>
          inventory.createItem(tenantId, {
            communityId,
            slotId: slotKey,
            name,
            rarity,
            supply,
            description: `A ${rarity} ${slotKey} item.`,
            attributes: [{ traitType: 'Rarity', value: rarity }],
          }),
      );
    const hat = await item('head', 'Pirate hat', 'common');
    const crown = await item('head', 'Golden crown', 'legendary', 10);
    const shirt = await item('body', 'Striped shirt', 'common');
    const ocean = await item('background', 'Open sea', 'rare', 100);
    for (const [user, itemId, key] of [
      ['demo', hat, 'hat'],
      ['demo', ocean, 'sea'],
      ['alice', hat, 'hat'],
      ['alice', crown, 'crown'],
      ['bob', ocean, 'sea'],
    ] as const) {
      const r = await inventory.adminGrant(tenantId, {
        userId: users[user],
        itemId,
        reason: 'demo_seed',
        idempotencyKey: `demo-seed:item:${user}:${key}`,
      });
      if (!r.replayed) this.note(`granted ${key} to ${user}`);
    }
    await inventory.allocate(tenantId, communityId, users.demo, {
      slots: [
        { slotId: 'head', itemId: hat },
        { slotId: 'background', itemId: ocean },
      ],
    });
    await inventory.allocate(tenantId, communityId, users.alice, { slots: [{ slotId: 'head', itemId: crown }] });

    this.progress('inventory slots, items, avatars');

    // ---- community quests with tags; completions credit XP
    const quests = this.get(QuestsService);
    const quest = (name: string, fields: Omit<CreateQuestDto, 'communityId' | 'name'>, questEventId?: string) =>
      this.ensure(
        (t) => this.get(QuestsRepository).findByName(t, communityId, name),
        `quest "${name}"`,
        () => quests.create(tenantId, { communityId, name, questEventId, ...fields }),
      );
    const discord = await quest('Join our Discord', {
      type: 'social',
      tags: ['social', 'onboarding'],
      featured: true,
      description: 'Say hello in #general.',
      rewards: [{ type: 'resource', resourceTypeId: xp, amount: 50 }],
    });
    const follow = await quest('Follow us on X', {
      type: 'social',
      tags: ['social'],
      rewards: [{ type: 'resource', resourceTypeId: xp, amount: 25 }],
    });
    const wins = await quest('Win 3 matches', {
      type: 'match',
      tags: ['pvp', 'weekly'],
      rewards: [
        { type: 'resource', resourceTypeId: xp, amount: 100 },
        { type: 'item', itemId: shirt, quantity: 1 },
      ],
    });
    await quest('Daily login', { type: 'daily', tags: ['daily'], rewards: [{ type: 'resource', resourceTypeId: xp, amount: 10 }] });
    await quest('Invite a friend (template)', {
      type: 'referral',
      tags: ['onboarding'],
      template: true,
      rewards: [{ type: 'resource', resourceTypeId: xp, amount: 75 }],
    });
    const done: Record<UserName, string[]> = {
      demo: [discord, follow, wins],
      alice: [discord, follow, wins],
      bob: [discord, wins],
      carol: [discord, follow],
      dave: [discord],
    };
    for (const name of DEMO.users)
      for (const q of done[name]) if ((await quests.complete(tenantId, q, users[name])).created) this.note(`${name} completed a quest`);
    // Extra XP so the leaderboard has distinct ranks.
    const ledger = this.get(LedgerService);
    const bonus: Record<UserName, number> = { demo: 1000, alice: 800, bob: 500, carol: 300, dave: 100 };
    for (const name of DEMO.users) {
      const r = await ledger.credit(this.ds.manager, {
        tenantId,
        userId: users[name],
        resourceTypeId: xp,
        amount: bonus[name],
        reason: 'demo_seed',
        idempotencyKey: `demo-seed:xp:${name}`,
      });
      if (!r.replayed) this.note(`credited ${bonus[name]} XP to ${name}`);
    }

    await this.seedPlayableQuests(communityId, xp, shirt);
    this.progress('quests, completions, XP');

    // ---- prizes and store
    const requirements = this.get(RequirementsService);
    const requirement = (dto: CreateRequirementDto) =>
      this.ensure(
        (t) => this.lookups.requirementByKey(t, dto.key),
        `requirement ${dto.key}`,
        () => requirements.create(tenantId, dto),
      );
    const shipping = await requirement({
      key: 'shipping-address',
      name: 'Shipping address',
      kind: 'data',
      schema: {
        type: 'object',
        required: ['addressLine1', 'city', 'country'],
        additionalProperties: false,
        properties: {
          addressLine1: { type: 'string', maxLength: 200 },
          city: { type: 'string', maxLength: 100 },
          country: { type: 'string', maxLength: 64 },
        },
      },
    });
    const veteran = await requirement({
      key: 'xp-500',
      name: 'At least 500 XP earned',
      kind: 'min_resource',
      resourceTypeId: xp,
      minAmount: 500,
    });
    const prizes = this.get(PrizesService);
    const prize = (
      name: string,
      fields: { kind: 'achievement' | 'physical' | 'digital'; totalSupply?: number; requirementIds?: string[]; description: string },
    ) =>
      this.ensure(
        (t) => this.lookups.prizeByName(t, name),
        `prize "${name}"`,
        () => prizes.create(tenantId, { communityId, name, ...fields }),
      );
    const founder = await prize('Founder badge', { kind: 'achievement', description: 'Was here on day one.' });
    const jersey = await prize('Team jersey', {
      kind: 'physical',
      totalSupply: 50,
      requirementIds: [shipping],
      description: 'The official Pixel Pirates jersey, shipped to you.',
    });
    const champion = await prize('Season 1 champion', { kind: 'digital', totalSupply: 1, description: 'The best pirate of season 1.' });
    for (const [name, prizeId, key] of [
      ['demo', founder, 'founder'],
      ['alice', founder, 'founder'],
      ['bob', founder, 'founder'],
      ['alice', champion, 'champion'],
    ] as const) {
      const r = await prizes.adminAward(tenantId, prizeId, {
        userId: users[name],
        reason: 'demo_seed',
        idempotencyKey: `demo-seed:prize:${name}:${key}`,
      });
      if (!r.replayed) this.note(`awarded ${key} to ${name}`);
    }
    const store = this.get(StoreListingsService);
    const listing = (dto: Omit<CreateListingDto, 'communityId'>) =>
      this.ensure(
        (t) => this.lookups.storeListingByName(t, communityId, dto.name),
        `store listing "${dto.name}"`,
        () => store.createListing(tenantId, { communityId, ...dto }),
      );
    await listing({
      name: 'Pirate hat',
      kind: 'item',
      itemId: hat,
      price: [{ resourceTypeId: xp, amount: 100 }],
      perUserLimit: 1,
      position: 1,
      description: 'A classic.',
    });
    const shirtListing = await listing({
      name: 'Striped shirt',
      kind: 'item',
      itemId: shirt,
      price: [{ resourceTypeId: xp, amount: 150 }],
      perUserLimit: 2,
      position: 2,
    });
    await listing({
      name: 'Golden crown',
      kind: 'item',
      itemId: crown,
      price: [{ resourceTypeId: xp, amount: 900 }],
      totalSupply: 5,
      perUserLimit: 1,
      requirementIds: [veteran],
      position: 3,
      description: 'For veterans with 500 XP earned.',
    });
    await listing({
      name: 'Team jersey',
      kind: 'prize',
      prizeId: jersey,
      price: [{ resourceTypeId: xp, amount: 300 }],
      perUserLimit: 1,
      position: 4,
      description: 'Needs a shipping address.',
    });
    const bought = await this.get(StorePurchaseService).purchase(tenantId, users.demo, shirtListing, { nonce: 'demo-seed-shirt' });
    if (!bought.replayed) this.note('demo bought a Striped shirt');

    this.progress('prizes and store');

    // ---- a weekly XP season: last week's, finished with its winners paid, and this week's
    await this.seedSeasons(communityId, users, xp);
    this.progress('weekly XP seasons');

    // ---- quest events in every state
    await this.seedEvents(communityId, users, { xp, crown, resourceType, quest });
    this.progress('quest events in every state');

    const ms = Date.now() - started;
    this.log(
      this.created > 0
        ? `Demo data ready: ${this.created} things made in ${ms} ms.`
        : `Demo data already complete: nothing to do (${ms} ms).`,
    );
    return {
      tenantId,
      tenantSlug: DEMO.tenant,
      apiKey,
      sharedSecret,
      communityId,
      communitySlug: DEMO.community,
      eventSlug: DEMO.event,
      users: [...DEMO.users],
      password: DEMO.password,
      created: this.created,
    };
  }

  /**
   * A "Weekly XP" schedule (Mondays 00:00, Europe/Berlin): last week's season imported with its
   * final scores (Alice first; Demo and Bob tie, Demo reached it first) and closed here, so its
   * winners hold their rewards and notifications; this week's season opens at once and counts a
   * little XP.
   */
  private async seedSeasons(communityId: string, users: Record<UserName, string>, xp: string): Promise<void> {
    const tenantId = this.tenantId;
    const seasons = this.get(SeasonsService);
    const found = await this.lookups.seasonScheduleByName(tenantId, communityId, 'Weekly XP');
    if (found) return;
    const champion = await this.ensure(
      (t) => this.lookups.prizeByName(t, 'Weekly champion'),
      'prize "Weekly champion"',
      () =>
        this.get(PrizesService).create(tenantId, {
          communityId,
          name: 'Weekly champion',
          kind: 'achievement',
          description: 'Won a weekly XP season.',
        }),
    );
    const schedule = await seasons.createSchedule(
      tenantId,
      {
        communityId,
        resourceTypeId: xp,
        name: 'Weekly XP',
        cron: '0 0 * * 1',
        timeZone: 'Europe/Berlin',
        rewards: [
          { fromRank: 1, toRank: 1, type: 'prize', refId: champion, amount: 1 },
          { fromRank: 1, toRank: 3, type: 'resource', refId: xp, amount: 50 },
        ],
      },
      { open: false },
    );
    this.note('season schedule "Weekly XP"');
    // Last week: the two Mondays before the next one.
    const next = new Date(schedule.nextStartsAt!);
    const endsAt = new Date(next.getTime() - 7 * DAY);
    const startsAt = new Date(endsAt.getTime() - 7 * DAY);
    const at = (h: number) => new Date(startsAt.getTime() + h * 3_600_000);
    await seasons.importFinished(tenantId, schedule.id, {
      number: 1,
      name: 'Weekly XP #1',
      startsAt,
      endsAt,
      scores: [
        { userId: users.alice, score: 420, reachedAt: at(60) },
        { userId: users.demo, score: 380, reachedAt: at(30) },
        { userId: users.bob, score: 380, reachedAt: at(90) },
        { userId: users.carol, score: 150, reachedAt: at(20) },
      ],
    });
    this.note('finished season "Weekly XP #1"');
    await seasons.openNext(schedule.id, tenantId, 0);
    this.note('season "Weekly XP #2"');
    // Freezes last week's standings and pays its winners (the worker would, within seconds).
    await this.get(SeasonCloser).runOnce();
    const ledger = this.get(LedgerService);
    const week: Partial<Record<UserName, number>> = { carol: 60, dave: 40, demo: 25 };
    for (const [name, amount] of Object.entries(week) as [UserName, number][]) {
      await ledger.credit(this.ds.manager, {
        tenantId,
        userId: users[name],
        resourceTypeId: xp,
        amount,
        reason: 'demo_seed',
        idempotencyKey: `demo-seed:week-xp:${name}`,
      });
      this.note(`credited ${amount} XP this week to ${name}`);
    }
  }

  private sectionMade: string[] = [];

  /** Records one thing this run made. */
  private note(what: string): void {
    this.created++;
    this.sectionMade.push(what);
  }

  /** One progress line per part of the demo: what was made since the last line, or that it was already there. */
  private progress(name: string): void {
    const made = this.sectionMade;
    this.sectionMade = [];
    this.log(`  ${`${name} `.padEnd(34, '.')} ${made.length === 0 ? 'already there' : `${made.length} made (${summarise(made)})`}`);
  }

  /**
   * Quests players complete themselves, a task of each kind that works on a fresh machine with
   * nothing else running. The on-chain one is made when QUEST_CHAINS names a chain; the partner one
   * is a draft pointing at an example URL, to be set to the operator's own endpoint.
   */
  private async seedPlayableQuests(communityId: string, xp: string, shirt: string): Promise<void> {
    const quests = this.get(QuestsService);
    const tasks = this.get(QuestTasksService);
    const tenantId = this.tenantId;
    const playable = async (name: string, fields: Omit<CreateQuestDto, 'communityId' | 'name'>, task: CreateQuestTaskDto) => {
      const existing = await this.get(QuestsRepository).findByName(tenantId, communityId, name);
      if (existing) return existing.id;
      const q = await quests.create(tenantId, { communityId, name, ...fields });
      await tasks.create(tenantId, q.id, task);
      this.note(`quest "${name}" with a ${task.kind} task`);
      return q.id;
    };
    const reward = (amount: number) => [{ type: 'resource' as const, resourceTypeId: xp, amount }];
    await playable(
      "The pirate's code word",
      { type: 'quiz', tags: ['quiz', 'onboarding'], description: 'It is written on the harbour wall: "Avast ye".', rewards: reward(20) },
      { kind: 'answer', title: 'What do pirates say?', answer: { answers: ['Avast ye'], maxAttempts: 5, retryAfterSeconds: 10 } },
    );
    await playable(
      'Daily check-in',
      {
        type: 'daily',
        tags: ['daily'],
        recurrence: 'daily',
        rewards: reward(5),
        streakBonus: { every: 3, rewards: reward(30) },
      },
      { kind: 'visit', title: "Read today's harbour news", visit: { url: 'https://example.com/pixel-pirates/news' } },
    );
    await playable(
      'Share your best moment',
      { type: 'ugc', tags: ['social'], rewards: reward(40) },
      {
        kind: 'submission',
        title: 'Post a clip and send its link',
        submission: { format: 'url', instructions: 'A link to your clip; a crew member reviews it in the console.' },
      },
    );
    await playable(
      'Win 3 matches this week',
      {
        type: 'match',
        tags: ['pvp', 'weekly'],
        recurrence: 'weekly',
        rewards: [...reward(60), { type: 'item', itemId: shirt, quantity: 1 }],
      },
      {
        kind: 'game_event',
        title: 'Win 3 matches',
        description: 'The game server posts match_won events (POST /v1/admin/events).',
        gameEvent: { eventType: 'match_won', aggregate: 'count', atLeast: 3 },
      },
    );
    await playable(
      'Bring two friends aboard',
      { type: 'referral', tags: ['onboarding'], rewards: reward(75) },
      { kind: 'referrals', title: 'Two friends join with your handle as referrer', referrals: { atLeast: 2 } },
    );
    await playable(
      'Seasoned sailor',
      { type: 'milestone', tags: ['milestone'], rewards: reward(50) },
      { kind: 'resource', title: 'Earn 500 XP', resource: { resourceTypeId: xp, measure: 'earned', atLeast: 500 } },
    );
    await playable(
      'Link your Discord',
      { type: 'social', tags: ['social'], rewards: reward(15) },
      {
        kind: 'social',
        title: 'Link a Discord account',
        description:
          'With a bot token (PUT /v1/admin/communities/{id}/quest-platforms/discord) the task can also check a guild and a role.',
        social: { accountType: 'discord' },
      },
    );
    await playable(
      'Partner: finish the tutorial',
      {
        type: 'partner',
        tags: ['partner'],
        status: 'draft',
        description: "Set the task's URL to your own endpoint, then activate the quest.",
      },
      { kind: 'partner', title: 'Finish the tutorial in the game', partner: { url: 'https://partner.example.com/quests/verify' } },
    );
    const chain = [...parseQuestChains(this.get(AppConfig).QUEST_CHAINS).keys()][0];
    if (chain)
      await playable(
        'Hold a crew token',
        { type: 'onchain', tags: ['onchain'], rewards: reward(25), description: `Reads ${chain} (QUEST_CHAINS).` },
        {
          kind: 'onchain',
          title: 'Hold at least one token',
          onchain: { chain, standard: 'erc20', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3', minBalance: '1' },
        },
      );
  }

  private async ensureUsers(): Promise<Record<UserName, string>> {
    const users = this.get(UsersService);
    const out = {} as Record<UserName, string>;
    const missing: UserName[] = [];
    for (const name of DEMO.users) {
      const found = await users.findByUsername(this.tenantId, name);
      if (found) out[name] = found.id;
      else missing.push(name);
    }
    // The same registration as POST /v1/user/register/password (scrypt at the configured cost, the
    // username as handle), without a session. Hashing is the slow part: the hashes run in parallel.
    const cost = this.get(AppConfig).PASSWORD_SCRYPT_COST;
    const hashes = await Promise.all(missing.map(() => hashPassword(DEMO.password, cost)));
    for (const [i, name] of missing.entries()) {
      const user = await this.ds.transaction((em) =>
        users.create(em, {
          tenantId: this.tenantId,
          username: name,
          handle: name,
          passwordHash: hashes[i],
          displayName: name[0].toUpperCase() + name.slice(1),
        }),
      );
      out[name] = user.id;
      this.note(`user ${name}`);
    }
    return out;
  }

  private async seedEvents(
    communityId: string,
    users: Record<UserName, string>,
    ctx: {
      xp: string;
      crown: string;
      resourceType: (slug: string, name: string, kind: 'global' | 'scoped', questEventId?: string) => Promise<string>;
      quest: (name: string, fields: Omit<CreateQuestDto, 'communityId' | 'name'>, questEventId?: string) => Promise<string>;
    },
  ): Promise<void> {
    const tenantId = this.tenantId;
    const events = this.get(QuestEventsService);
    const rewards = this.get(RewardsService);
    const participation = this.get(ParticipationService);
    const quests = this.get(QuestsService);
    const eventRows = this.get(QuestEventsRepository);
    const participants = this.get(ParticipantsRepository);
    const eventById = async (id: string): Promise<QuestEvent> => {
      const e = await eventRows.findById(tenantId, id);
      if (!e) throw new Error(`No quest event ${id}`);
      return e;
    };

    const event = async (
      slug: string,
      name: string,
      days: [number, number, number, number],
      fields: { publish?: boolean; features?: string[]; description: string; capacity?: number },
    ) => {
      const [registrationStartsAt, registrationEndsAt, startsAt, endsAt] = days.map((d) => this.at(d));
      const id = await this.ensure(
        (t) => eventRows.findBySlug(t, slug),
        `quest event ${slug}`,
        () =>
          events.create(tenantId, {
            communityId,
            slug,
            name,
            registrationStartsAt,
            registrationEndsAt,
            startsAt,
            endsAt,
            minScore: 1,
            ...fields,
          }),
      );
      const row = await eventById(id);
      if (fields.publish !== false && !row.scoreResourceTypeId && row.state !== 'completed' && row.state !== 'cancelled') {
        const score = await ctx.resourceType(`${slug}-points`, `${name} points`, 'scoped', id);
        await events.update(tenantId, id, { scoreResourceTypeId: score });
      }
      return eventById(id);
    };
    const reward = (eventId: string, dto: CreateRewardDto) =>
      this.ensure(
        (t) => this.get(RewardsRepository).findRewardByName(t, eventId, dto.name),
        `reward "${dto.name}"`,
        () => rewards.createReward(tenantId, eventId, dto),
      );
    const play = async (e: QuestEvent, scores: Partial<Record<UserName, string[]>>) => {
      for (const [name, questIds] of Object.entries(scores) as [UserName, string[]][]) {
        const p = await participants.findByEventAndUser(e.id, users[name]);
        if (!p) {
          await participation.register(tenantId, users[name], e.id);
          this.note(`${name} registered for ${e.slug}`);
        }
        for (const q of questIds) if ((await quests.complete(tenantId, q, users[name])).created) this.note(`${name} scored in ${e.slug}`);
        await participation.sync(tenantId, users[name], e.id);
      }
    };

    // Active, registration open: the event of the README tour. Runs for a year from the first seed.
    const cup = await event(DEMO.event, 'Pirate Cup', [-1, 365, -1, 365], {
      features: ['score-based'],
      description: 'Complete the cup quests to climb the leaderboard. Top players win XP, a crown and a jersey.',
    });
    await reward(cup.id, {
      name: 'Champion XP',
      kind: 'resource',
      resourceTypeId: ctx.xp,
      amount: 500,
      tickets: 1,
      rankFrom: 1,
      rankTo: 1,
    });
    await reward(cup.id, { name: 'Golden crown', kind: 'item', itemId: ctx.crown, tickets: 1, supply: 3, rankFrom: 1, rankTo: 3 });
    await reward(cup.id, {
      name: 'Team jersey (shipped)',
      kind: 'manual',
      tickets: 1,
      rankFrom: 1,
      rankTo: 10,
      requiresEmail: true,
      requiresAddress: true,
    });
    const goal = await ctx.quest(
      'Score a goal',
      { type: 'match', tags: ['cup'], rewards: [{ type: 'resource', resourceTypeId: cup.scoreResourceTypeId!, amount: 30 }] },
      cup.id,
    );
    const win = await ctx.quest(
      'Win a cup match',
      { type: 'match', tags: ['cup'], rewards: [{ type: 'resource', resourceTypeId: cup.scoreResourceTypeId!, amount: 50 }] },
      cup.id,
    );
    await ctx.quest(
      'Play the final',
      { type: 'match', tags: ['cup'], rewards: [{ type: 'resource', resourceTypeId: cup.scoreResourceTypeId!, amount: 100 }] },
      cup.id,
    );
    await play(cup, { alice: [goal, win], demo: [win], bob: [goal], carol: [goal] });

    // Completed: played, then closed by the operator (tickets allocated, claimable).
    const past = await event('harbour-skirmish', 'Harbour Skirmish', [-2, 1, -1, 2], {
      features: ['score-based'],
      description: 'A finished event: see your reward allocations.',
    });
    if (past.state === 'published') {
      await reward(past.id, {
        name: 'Skirmish XP',
        kind: 'resource',
        resourceTypeId: ctx.xp,
        amount: 200,
        tickets: 1,
        rankFrom: 1,
        rankTo: 3,
      });
      const raid = await ctx.quest(
        'Win the harbour raid',
        { type: 'match', tags: ['skirmish'], rewards: [{ type: 'resource', resourceTypeId: past.scoreResourceTypeId!, amount: 40 }] },
        past.id,
      );
      // The registration window has closed by now; a half-seeded event is completed as it is.
      if (past.registrationEndsAt > this.now) await play(past, { demo: [raid], bob: [raid], alice: [] });
      const r = await this.get(EventCompletionService).complete(tenantId, past.id, true);
      if (r.completedNow) this.note(`completed harbour-skirmish (${r.allocationsCreated} allocations)`);
    }

    // Registration open, starts later.
    const open = await event('autumn-regatta', 'Autumn Regatta', [-1, 180, 180, 365], {
      features: ['score-based'],
      capacity: 100,
      description: 'Registration is open; the race starts later.',
    });
    await reward(open.id, {
      name: 'Regatta XP',
      kind: 'resource',
      resourceTypeId: ctx.xp,
      amount: 300,
      tickets: 1,
      rankFrom: 1,
      rankTo: 10,
    });
    // Upcoming: registration opens later.
    const upcoming = await event('winter-league', 'Winter League', [200, 230, 230, 365], {
      features: ['score-based'],
      description: 'Registration opens later.',
    });
    await reward(upcoming.id, { name: 'League XP', kind: 'resource', resourceTypeId: ctx.xp, amount: 250, tickets: 1 });
    // A draft (invisible to users) and a cancelled event.
    await event('secret-treasure-hunt', 'Secret Treasure Hunt', [10, 20, 20, 30], {
      publish: false,
      description: 'A draft: only the management API sees it.',
    });
    const cancelled = await event('stormy-meetup', 'Stormy Meetup', [5, 10, 10, 11], { description: 'Cancelled because of the weather.' });
    if (cancelled.state !== 'cancelled') {
      await events.cancel(tenantId, cancelled.id);
      this.note('cancelled stormy-meetup');
    }
  }
}

/** The lines `npm start` and `npm run seed` print after seeding. */
export function renderDemoSummary(s: DemoSummary, baseUrl?: string): string {
  return [
    '',
    `Demo tenant "${s.tenantSlug}"${s.apiKey ? ' (the API key is shown once; store it now)' : ''}:`,
    `  tenant id:     ${s.tenantId}   (send X-Tenant-Id: ${s.tenantSlug} on requests without a session)`,
    `  API key:       ${s.apiKey ?? '(not shown again: stored hashed; `npm run seed -- --rotate-api-key` makes a new one)'}`,
    `  shared secret: ${s.sharedSecret}`,
    `  community:     ${s.communitySlug}   event: ${s.eventSlug} (active, registration open)`,
    `  log in as:     ${s.users[0]} / ${s.password}   (also ${s.users.slice(1).join(', ')}; same password)`,
    ...(baseUrl
      ? [
          `  try:          curl -s -X POST ${baseUrl}/v1/user/auth/password/login -H 'X-Tenant-Id: ${s.tenantSlug}' \\`,
          `                  -H 'Content-Type: application/json' -d '{"username":"${s.users[0]}","password":"${s.password}"}'`,
        ]
      : []),
    '',
  ].join('\n');
}

function summarise(made: string[]): string {
  const shown = made.slice(0, 3).join(', ');
  return made.length > 3 ? `${shown}, +${made.length - 3} more` : shown;
}
