import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { keptItem, pageOfKeptItems } from '../common/serialization/item-texts.js';
import { likeContaining } from '../common/sql/like.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { CompleteQuest } from './claims/complete-quest.js';
import { QuestContextLoader } from './claims/quest-context.js';
import { questPeriod } from './schedule/quest-period.js';
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
import { QuestListsCache } from './quest-lists.cache.js';
import { questListQuery, QuestListReadModel } from './quest-list.read-model.js';

const DONE = Object.freeze({ done: true });
const NOT_DONE = Object.freeze({ done: false });

const normTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];

/** Quests of a community, their tags with statistics, and completing them (rewards credited once). */
@Injectable()
export class QuestsService {
  constructor(
    private readonly repo: QuestsRepository,
    private readonly shown: QuestListReadModel,
    private readonly references: QuestReferencesReadModel,
    private readonly communities: CommunitiesService,
    private readonly events: QuestEventsService,
    private readonly contexts: QuestContextLoader,
    private readonly completion: CompleteQuest,
    private readonly clock: Clock,
    private readonly caches: QuestListsCache,
  ) {}

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
    const { rows, total } = await this.caches.lists.get(tenantId, JSON.stringify([query.from, query.params, page.offset, page.limit]), {
      query,
      page,
    });
    const done = await this.completedSet(tenantId, userId, rows);
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
    const done = await this.completedSet(tenantId, userId, counted);
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
    const completed = await this.completedSet(tenantId, userId, quests);
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
      ...(await this.schedule(tenantId, community.id, null, questEventId, dto, null)),
    });
    this.caches.drop(tenantId);
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
    Object.assign(quest, await this.schedule(tenantId, quest.communityId, quest.id, quest.questEventId, dto, quest));
    const { name, description, type, status, tags, rewards, featured, template } = quest;
    const { recurrence, cooldownSeconds, maxCompletions, availableFrom, availableUntil, prerequisites, streakBonus, gates } = quest;
    await this.repo.update(tenantId, quest.id, {
      name,
      description,
      type,
      status,
      tags,
      rewards,
      featured,
      template,
      recurrence,
      cooldownSeconds,
      maxCompletions,
      availableFrom,
      availableUntil,
      prerequisites,
      streakBonus,
      gates,
    });
    this.caches.drop(tenantId);
    return toQuestDto(quest, false);
  }

  /**
   * Records that the user completed the quest (in its current period) and credits its rewards,
   * exactly once per period (`CompleteQuest`): the management API's completion, for quests a game
   * server completes itself. An event quest needs the event active and the user REGISTERED.
   */
  async complete(tenantId: string, questId: string, userId: string): Promise<QuestCompletionDto> {
    const quest = await this.find(tenantId, questId);
    if (quest.status !== 'active') throw new DomainError(QuestErrors.quest_not_completable, `The quest is ${quest.status}`);
    const ctx = await this.contexts.of(tenantId, quest);
    const r = await this.completion.complete(tenantId, quest, userId, ctx.period, ctx.previousKey);
    return {
      questId: quest.id,
      userId,
      completedAt: r.completedAt,
      created: r.created,
      rewards: quest.rewards.map(toRewardDto),
      periodKey: r.periodKey,
    };
  }

  /**
   * Which of the quests the user completed: a `once` quest at all, a recurring one in its current
   * period (the community's time zone). Cached per user and (quest, period); a completion drops them.
   */
  private async completedSet(tenantId: string, userId: string, quests: Quest[]): Promise<Set<string>> {
    if (quests.length === 0) return new Set();
    const now = this.clock.now();
    const zones = new Map<string, string>();
    for (const q of quests)
      if (q.recurrence !== 'once' && !zones.has(q.communityId))
        zones.set(q.communityId, (await this.communities.resolveShared(q.tenantId, q.communityId)).timeZone);
    const keyOf = new Map(quests.map((q) => [q.id, `${q.id}:${questPeriod(q.recurrence, zones.get(q.communityId) ?? 'UTC', now).key}`]));
    const flags = await this.caches.completions.getGrouped(userId.toLowerCase(), [...keyOf.values()], async (missing) => {
      const pairs = missing.map((k) => k.split(':'));
      const done = await this.repo.completedAmong(
        tenantId,
        userId,
        pairs.map(([id]) => id),
        pairs.map(([, period]) => period),
      );
      return new Map(missing.map((k) => [k, done.has(k) ? DONE : NOT_DONE]));
    });
    const done = new Set<string>();
    for (const [id, key] of keyOf) if (flags.get(key)?.done) done.add(id);
    return done;
  }

  /**
   * The schedule and conditions of a create or update, checked: a window that ends after it
   * starts, prerequisites among the community's other quests, a streak bonus only on a recurring
   * quest (its rewards checked as the quest's), social gates of known account types.
   */
  private async schedule(
    tenantId: string,
    communityId: string,
    questId: string | null,
    questEventId: string | null,
    dto: CreateQuestDto | UpdateQuestDto,
    current: Quest | null,
  ): Promise<Partial<Quest>> {
    const out: Partial<Quest> = {};
    if (dto.recurrence !== undefined) out.recurrence = dto.recurrence;
    if (dto.cooldownSeconds !== undefined) out.cooldownSeconds = dto.cooldownSeconds;
    if (dto.maxCompletions !== undefined) out.maxCompletions = dto.maxCompletions;
    if (dto.availableFrom !== undefined) out.availableFrom = dto.availableFrom;
    if (dto.availableUntil !== undefined) out.availableUntil = dto.availableUntil;
    const from = out.availableFrom !== undefined ? out.availableFrom : (current?.availableFrom ?? null);
    const until = out.availableUntil !== undefined ? out.availableUntil : (current?.availableUntil ?? null);
    if (from && until && until <= from) throw new DomainError(QuestErrors.invalid_quest, 'availableUntil must be after availableFrom');
    if (dto.prerequisites !== undefined) {
      const ids = [...new Set(dto.prerequisites)];
      if (questId && ids.includes(questId)) throw new DomainError(QuestErrors.invalid_quest, 'A quest cannot be its own prerequisite');
      for (const id of ids) {
        const other = await this.repo.findById(tenantId, id);
        if (!other || other.communityId !== communityId)
          throw new DomainError(QuestErrors.invalid_quest, `Prerequisite ${id} is not a quest of this community`);
      }
      out.prerequisites = ids;
    }
    const recurrence = out.recurrence ?? current?.recurrence ?? 'once';
    if (dto.streakBonus !== undefined) {
      out.streakBonus =
        dto.streakBonus === null
          ? null
          : {
              every: dto.streakBonus.every,
              rewards: await this.checkRewards(tenantId, communityId, questEventId, dto.streakBonus.rewards),
            };
    }
    const streak = out.streakBonus !== undefined ? out.streakBonus : (current?.streakBonus ?? null);
    if (streak && recurrence === 'once')
      throw new DomainError(QuestErrors.invalid_quest, 'A streak bonus needs a recurring quest (daily, weekly or monthly)');
    if (dto.gates !== undefined) {
      const g = dto.gates;
      out.gates = {
        ...(g.minAccountAgeDays !== undefined ? { minAccountAgeDays: g.minAccountAgeDays } : {}),
        ...(g.requireWallet !== undefined ? { requireWallet: g.requireWallet } : {}),
        ...(g.requireSocials?.length ? { requireSocials: [...new Set(g.requireSocials)] } : {}),
      };
    }
    return out;
  }

  private async find(tenantId: string, id: string): Promise<Quest> {
    const quest = await this.repo.findById(tenantId, id);
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
