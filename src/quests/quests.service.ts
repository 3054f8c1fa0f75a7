import { DomainEvents } from '../common/events/domain-events.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { PAGES_WEIGHT_MAX, rowsWeight } from '../common/cache/rows-weight.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { keptItem, pageOfKeptItems } from '../common/serialization/item-texts.js';
import { likeContaining } from '../common/sql/like.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { ParticipantsRepository } from '../participation/participants.repository.js';
import { eventStatus } from '../quest-events/event-status.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { UserErrors } from '../users/users.errors.js';
import type {
  CreateQuestDto,
  ListQuestsQueryDto,
  QuestCompletionDto,
  QuestDto,
  QuestRewardDto,
  QuestTagDto,
  QuestTagsQueryDto,
  UpdateQuestDto,
} from './dto/quest.dto.js';
import type { Quest, QuestReward } from './entities/quest.entity.js';
import { toQuestDto, toRewardDto } from './quest.mapper.js';
import { QuestReferencesReadModel } from './quest-references.read-model.js';
import { QuestErrors } from './quests.errors.js';
import { QuestsRepository } from './quests.repository.js';
import { type QuestListQuery, questListQuery, QuestListReadModel } from './quest-list.read-model.js';

const DONE = Object.freeze({ done: true });
const NOT_DONE = Object.freeze({ done: false });

const normTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];

/** Quests of a community, their tags with statistics, and completing them (rewards credited once). */
@Injectable()
export class QuestsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: QuestsRepository,
    private readonly shown: QuestListReadModel,
    private readonly references: QuestReferencesReadModel,
    private readonly participants: ParticipantsRepository,
    private readonly communities: CommunitiesService,
    private readonly events: QuestEventsService,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly clock: Clock,
    caches: CacheFactory,
    private readonly domainEvents: DomainEvents,
  ) {
    this.lists = caches.create({
      name: 'quest list pages',
      // Pages are kept per filter a client picks: bounded by what their rows weigh, not by count.
      max: PAGES_WEIGHT_MAX,
      weigh: ({ rows }) => rowsWeight(rows),
      load: ({ query, page }) => this.shown.findListPage(query, page),
    });
    this.completions = caches.create({
      name: 'user quest completions',
      max: 200_000,
      weigh: (flags) => flags.size,
      droppedOnEveryChange: true,
    });
    // Completions are only ever added, each publishing quest.completed: the user's cached flags go
    // at its commit, here and, through the cache bus, in every process.
    domainEvents.afterCommit('quest.completed', ({ userId }) => this.completions.drop(userId.toLowerCase()));
    // An event published, cancelled or completed shows or hides its quests in the lists.
    domainEvents.afterCommit('quest_event.status_changed', ({ tenantId }) => this.lists.drop(tenantId));
  }

  /** Whether a user completed a quest, per quest, one scope per user, dropped by their next completion (so BOARD_CACHE_MS while the cache bus listens). */
  private readonly completions: ReadCache<never, Map<string, { readonly done: boolean }>>;

  /** Pages of filtered quest lists (rows in order, total), per tenant (READ_CACHE_MS); every quest write and event status change of the tenant drops them. */
  private readonly lists: ReadCache<{ query: QuestListQuery; page: PageRequest }, { rows: Quest[]; total: number }>;

  /**
   * Active quests of the community, filtered: any of `tags`, any of `questTypes`, `featured`
   * ('' both), `query` (name or description, case-insensitive). Featured first, then oldest first.
   */
  async list(tenantId: string, userId: string, communityRef: string, q: ListQuestsQueryDto): Promise<Page<QuestDto>> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const page: PageRequest = { page: q.page, limit: q.limit, offset: (q.page - 1) * q.limit };
    const query = questListQuery(tenantId, community.id, {
      tags: normTags(q.tags),
      types: normTags(q.questTypes),
      featured: q.featured !== '' ? q.featured : undefined,
      like: q.query.trim() !== '' ? likeContaining(q.query.trim()) : undefined,
    });
    // The page may be READ_CACHE_MS old; the user's completions are as fresh as their last completion.
    const { rows, total } = await this.lists.get(tenantId, JSON.stringify([query.from, query.params, page.offset, page.limit]), {
      query,
      page,
    });
    const done = await this.completedSet(
      userId,
      rows.map((x) => x.id),
    );
    // Each item and its JSON kept per cached row and per completion flag (the caller's own).
    return pageOfKeptItems(
      rows.map((x) => {
        const completed = done.has(x.id);
        return keptItem(x, completed ? 1 : 0, () => toQuestDto(x, completed));
      }),
      total,
      page,
    );
  }

  /**
   * Tags of the community's active quests with statistics for `userId` ('' = the current user):
   * `completedCount` / `availableCount` over all of the tag's quests (after `excludeTemplateTags`),
   * `questCount` over the counted quests (only those not completed with `userAvailableQuests`).
   * Tags whose count is 0 are left out. Alphabetical.
   */
  async tags(tenantId: string, currentUserId: string, communityRef: string, q: QuestTagsQueryDto): Promise<QuestTagDto[]> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const userId = q.userId === '' ? currentUserId : q.userId.toLowerCase();
    if (userId !== currentUserId) {
      if (!(await this.references.userExists(tenantId, userId)))
        throw new DomainError(UserErrors.user_not_found, `No user ${userId} in this tenant`);
    }
    const quests = await this.shown.findShownInCommunity(tenantId, community.id);
    const counted = quests.filter((x) => !(q.excludeTemplateTags && x.template));
    const done = await this.completedSet(
      userId,
      counted.map((x) => x.id),
    );
    const byTag = new Map<string, { quests: Quest[]; completed: number }>();
    for (const quest of counted) {
      for (const tag of quest.tags) {
        const entry = byTag.get(tag) ?? { quests: [], completed: 0 };
        entry.quests.push(quest);
        if (done.has(quest.id)) entry.completed++;
        byTag.set(tag, entry);
      }
    }
    const out: QuestTagDto[] = [];
    for (const [tag, entry] of [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const inCount = q.userAvailableQuests ? entry.quests.filter((x) => !done.has(x.id)) : entry.quests;
      if (inCount.length === 0) continue;
      const dto: QuestTagDto = {
        tag,
        questCount: inCount.length,
        completedCount: entry.completed,
        availableCount: entry.quests.length - entry.completed,
      };
      if (q.includeRewards === true) dto.rewards = sumRewards(inCount.flatMap((x) => x.rewards));
      out.push(dto);
    }
    return out;
  }

  /** The active quests of the quest event, oldest first, with the user's completion. */
  async eventQuests(tenantId: string, userId: string, eventRef: string): Promise<QuestDto[]> {
    const e = await this.events.resolve(tenantId, eventRef);
    const quests = await this.repo.findActiveOfEvent(tenantId, e.id);
    const completed = await this.completedSet(
      userId,
      quests.map((q) => q.id),
    );
    return quests.map((q) => toQuestDto(q, completed.has(q.id)));
  }

  // ------------------------------------------------------------------ management

  async getAdmin(tenantId: string, id: string): Promise<QuestDto> {
    return toQuestDto(await this.find(tenantId, id), false);
  }

  async listAdmin(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<QuestDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const [rows, total] = await this.repo.findPageInCommunity(tenantId, community.id, page);
    return toPage(
      rows.map((x) => toQuestDto(x, false)),
      total,
      page,
    );
  }

  async create(tenantId: string, dto: CreateQuestDto): Promise<QuestDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    let questEventId: string | null = null;
    if (dto.questEventId) {
      const event = await this.events.resolve(tenantId, dto.questEventId, { includeDrafts: true });
      if (event.communityId !== community.id)
        throw new DomainError(QuestErrors.invalid_quest, 'The quest event belongs to another community');
      questEventId = event.id;
    }
    const rewards = await this.checkRewards(tenantId, community.id, questEventId, dto.rewards ?? []);
    const quest = await this.repo.insert({
      tenantId,
      communityId: community.id,
      questEventId,
      name: dto.name,
      description: dto.description ?? '',
      type: dto.type.toLowerCase(),
      status: dto.status ?? 'active',
      tags: normTags(dto.tags ?? []),
      rewards,
      featured: dto.featured ?? false,
      template: dto.template ?? false,
    });
    this.lists.drop(tenantId);
    return toQuestDto(quest, false);
  }

  async update(tenantId: string, id: string, dto: UpdateQuestDto): Promise<QuestDto> {
    const quest = await this.find(tenantId, id);
    if (dto.name !== undefined) quest.name = dto.name;
    if (dto.description !== undefined) quest.description = dto.description;
    if (dto.type !== undefined) quest.type = dto.type.toLowerCase();
    if (dto.status !== undefined) quest.status = dto.status;
    if (dto.tags !== undefined) quest.tags = normTags(dto.tags);
    if (dto.rewards !== undefined) quest.rewards = await this.checkRewards(tenantId, quest.communityId, quest.questEventId, dto.rewards);
    if (dto.featured !== undefined) quest.featured = dto.featured;
    if (dto.template !== undefined) quest.template = dto.template;
    const { name, description, type, status, tags, rewards, featured, template } = quest;
    await this.repo.update(tenantId, quest.id, { name, description, type, status, tags, rewards, featured, template });
    this.lists.drop(tenantId);
    return toQuestDto(quest, false);
  }

  /**
   * Records that the user completed the quest and credits its rewards, exactly once: the
   * completion row is unique per (quest, user) and the ledger credits carry idempotency keys
   * derived from it. An event quest needs the event to be active and the user REGISTERED (the
   * participant row is locked until commit, so a concurrent cancel waits) and also brings the
   * participant's score up to date.
   */
  async complete(tenantId: string, questId: string, userId: string): Promise<QuestCompletionDto> {
    const quest = await this.find(tenantId, questId);
    if (quest.status !== 'active') throw new DomainError(QuestErrors.quest_not_completable, `The quest is ${quest.status}`);
    return this.dataSource.transaction(async (em) => {
      if (!(await this.references.userExists(tenantId, userId, em)))
        throw new DomainError(UserErrors.user_not_found, `No user ${userId} in this tenant`);
      let scoreTypeId: string | null = null;
      let participantId: string | null = null;
      if (quest.questEventId) {
        // The participant's row before the event's state: the completion of an event writes each
        // final score under that row's lock, after its claim has committed, so a completion that
        // gets the row after that reads the event as no longer active, and no live balance
        // (`syncScore` below) can replace a final score.
        const p = await this.participants.lockByEventAndUser(quest.questEventId, userId, em);
        const event = await this.events.resolve(tenantId, quest.questEventId, { includeDrafts: true, em });
        const status = eventStatus(event, this.clock.now());
        if (status !== 'active') throw new DomainError(QuestErrors.quest_not_completable, `The quest's event is ${status}, not active`);
        if (!p || p.status !== 1)
          throw new DomainError(QuestErrors.quest_not_completable, 'Only REGISTERED participants of the event can complete its quests');
        scoreTypeId = event.scoreResourceTypeId;
        participantId = p.id;
      }
      const inserted = await this.repo.insertCompletion(tenantId, quest.id, userId, this.clock.now(), em);
      if (!inserted) {
        const completedAt = await this.repo.completedAt(quest.id, userId, em);
        return { questId: quest.id, userId, completedAt, created: false, rewards: quest.rewards.map(toRewardDto) };
      }
      const completionId = inserted.id;
      await this.domainEvents.publish(em, 'quest.completed', {
        tenantId,
        questId: quest.id,
        completionId,
        userId,
        communityId: quest.communityId,
        questEventId: quest.questEventId ?? null,
      });
      for (const [i, r] of quest.rewards.entries()) {
        const key = `quest:${completionId}:${i}`;
        if (r.type === 'resource') {
          await this.ledger.credit(em, {
            tenantId,
            userId,
            resourceTypeId: r.resourceTypeId,
            amount: r.amount,
            reason: 'quest_completion',
            reference: quest.id,
            idempotencyKey: key,
          });
        } else {
          await this.inventory.grantItem(em, {
            tenantId,
            userId,
            itemId: r.itemId,
            quantity: r.quantity,
            reason: 'quest_reward',
            reference: quest.id,
            idempotencyKey: key,
          });
        }
      }
      if (participantId && scoreTypeId) await this.participants.syncScore(participantId, scoreTypeId, this.clock.now(), em);
      return { questId: quest.id, userId, completedAt: inserted.completed_at, created: true, rewards: quest.rewards.map(toRewardDto) };
    });
  }

  private async completedSet(userId: string, questIds: string[]): Promise<Set<string>> {
    const flags = await this.completions.getGrouped(userId.toLowerCase(), questIds, async (missing) => {
      const done = await this.repo.completedAmong(userId, missing);
      return new Map(missing.map((id) => [id, done.has(id) ? DONE : NOT_DONE]));
    });
    const done = new Set<string>();
    for (const [id, { done: yes }] of flags) if (yes) done.add(id);
    return done;
  }

  private async find(tenantId: string, id: string): Promise<Quest> {
    const quest = UUID_RE.test(id) ? await this.repo.findById(tenantId, id.toLowerCase()) : null;
    if (!quest) throw new DomainError(QuestErrors.quest_not_found, `No quest ${id.slice(0, 64)} in this tenant`);
    return quest;
  }

  /**
   * Rewards must name resource types / items of the quest's community, and a scoped type only in a
   * quest of the event it is bound to: the event's score is credited through its own quests alone,
   * so its leaderboard holds its REGISTERED participants only. (A type's binding never changes
   * once set, so this holds until the quest is completed.)
   */
  private async checkRewards(
    tenantId: string,
    communityId: string,
    questEventId: string | null,
    rewards: QuestRewardDto[],
  ): Promise<QuestReward[]> {
    const out: QuestReward[] = [];
    for (const r of rewards) {
      if (r.type === 'resource') {
        const type = await this.references.communityResourceType(tenantId, communityId, r.resourceTypeId);
        if (!type)
          throw new DomainError(QuestErrors.invalid_quest, `Resource type ${r.resourceTypeId} is not a resource type of this community`);
        if (type.kind === 'scoped' && type.quest_event_id !== questEventId) {
          throw new DomainError(
            QuestErrors.scoped_reward_outside_event,
            type.quest_event_id === null
              ? `Resource type ${r.resourceTypeId} is scoped but bound to no quest event yet: make it an event's score type first`
              : `Resource type ${r.resourceTypeId} is scoped to quest event ${type.quest_event_id}: only that event's quests can reward it`,
          );
        }
        out.push({ type: 'resource', resourceTypeId: r.resourceTypeId!.toLowerCase(), amount: r.amount! });
      } else {
        const ok = await this.references.isCommunityItem(tenantId, communityId, r.itemId);
        if (!ok) throw new DomainError(QuestErrors.invalid_quest, `Item ${r.itemId} is not an inventory item of this community`);
        out.push({ type: 'item', itemId: r.itemId!.toLowerCase(), quantity: r.quantity! });
      }
    }
    return out;
  }
}

/** Rewards summed per resource type and per item. */
export function sumRewards(rewards: QuestReward[]): QuestRewardDto[] {
  const res = new Map<string, number>();
  const items = new Map<string, number>();
  for (const r of rewards) {
    if (r.type === 'resource') res.set(r.resourceTypeId, (res.get(r.resourceTypeId) ?? 0) + r.amount);
    else items.set(r.itemId, (items.get(r.itemId) ?? 0) + r.quantity);
  }
  return [
    ...[...res.entries()].map(([resourceTypeId, amount]) => ({ type: 'resource' as const, resourceTypeId, amount })),
    ...[...items.entries()].map(([itemId, quantity]) => ({ type: 'item' as const, itemId, quantity })),
  ];
}
