import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ReadCache } from '../common/cache/read-cache.js';
import { findPageFast } from '../database/find-one-fast.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { InventoryService } from '../inventory/inventory.service.js';
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
import { Quest, type QuestReward } from './entities/quest.entity.js';
import { toQuestDto, toRewardDto } from './quest.mapper.js';
import { QuestErrors } from './quests.errors.js';

/** The community list's order: featured first, then oldest first (index `ix_quests_active_order`). */
const QUEST_ORDER = 'q.featured DESC, q.created_at ASC, q.id ASC';

const normTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];

/** Quests of a community, their tags with statistics, and completing them (rewards credited once). */
@Injectable()
export class QuestsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly events: QuestEventsService,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.lists = new ReadCache({
      ttlMs: config.READ_CACHE_MS,
      max: 5_000,
      clock,
      dataSource,
      load: (q) => findPageFast(dataSource.manager, Quest, { alias: 'q', order: QUEST_ORDER, ...q }),
    });
  }

  /** Pages of filtered quest lists (rows in order, total), per tenant (READ_CACHE_MS); every quest write of the tenant drops them. */
  private readonly lists: ReadCache<{ from: string; params: unknown[]; page: PageRequest }, { rows: Quest[]; total: number }>;

  /**
   * Active quests of the community, filtered: any of `tags`, any of `questTypes`, `featured`
   * ('' both), `query` (name or description, case-insensitive). Featured first, then oldest first.
   */
  async list(tenantId: string, userId: string, communityRef: string, q: ListQuestsQueryDto): Promise<Page<QuestDto>> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const page: PageRequest = { page: q.page, limit: q.limit, offset: (q.page - 1) * q.limit };
    const params: unknown[] = [tenantId, community.id];
    const where = ['q.tenant_id = $1', 'q.community_id = $2', `q.status = 'active'`];
    const add = (sql: (p: string) => string, v: unknown) => {
      params.push(v);
      where.push(sql(`$${params.length}`));
    };
    const tags = normTags(q.tags);
    if (tags.length) add((p) => `q.tags && ${p}::text[]`, tags);
    const types = normTags(q.questTypes);
    if (types.length) add((p) => `q.type = ANY(${p}::text[])`, types);
    if (q.featured !== '') add((p) => `q.featured = ${p}`, q.featured);
    if (q.query.trim() !== '') {
      const like = `%${q.query.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      add((p) => `(q.name ILIKE ${p} OR q.description ILIKE ${p})`, like);
    }
    const from = `FROM quests q WHERE ${where.join(' AND ')}`;
    // The page may be READ_CACHE_MS old; the user's completions are read fresh.
    const { rows, total } = await this.lists.get(tenantId, JSON.stringify([from, params, page.offset, page.limit]), { from, params, page });
    const done = await this.completedSet(
      userId,
      rows.map((x) => x.id),
    );
    return toPage(
      rows.map((x) => toQuestDto(x, done.has(x.id))),
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
      const found: unknown[] = await this.dataSource.query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [userId, tenantId]);
      if (found.length === 0) throw new DomainError(UserErrors.user_not_found, `No user ${userId} in this tenant`);
    }
    const quests = await this.dataSource.getRepository(Quest).find({ where: { tenantId, communityId: community.id, status: 'active' } });
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

  // ------------------------------------------------------------------ management

  async getAdmin(tenantId: string, id: string): Promise<QuestDto> {
    return toQuestDto(await this.find(tenantId, id), false);
  }

  async listAdmin(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<QuestDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const [rows, total] = await this.dataSource.getRepository(Quest).findAndCount({
      where: { tenantId, communityId: community.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
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
    const rewards = await this.checkRewards(tenantId, community.id, dto.rewards ?? []);
    const repo = this.dataSource.getRepository(Quest);
    const quest = await repo.save(
      repo.create({
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
      }),
    );
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
    if (dto.rewards !== undefined) quest.rewards = await this.checkRewards(tenantId, quest.communityId, dto.rewards);
    if (dto.featured !== undefined) quest.featured = dto.featured;
    if (dto.template !== undefined) quest.template = dto.template;
    const { name, description, type, status, tags, rewards, featured, template } = quest;
    await this.dataSource
      .getRepository(Quest)
      .update({ id: quest.id, tenantId }, { name, description, type, status, tags, rewards, featured, template });
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
      const found: unknown[] = await em.query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [userId, tenantId]);
      if (found.length === 0) throw new DomainError(UserErrors.user_not_found, `No user ${userId} in this tenant`);
      let scoreTypeId: string | null = null;
      let participantId: string | null = null;
      if (quest.questEventId) {
        const event = await this.events.resolve(tenantId, quest.questEventId, { includeDrafts: true, em });
        const status = eventStatus(event, this.clock.now());
        if (status !== 'active') throw new DomainError(QuestErrors.quest_not_completable, `The quest's event is ${status}, not active`);
        const p: { id: string; status: number }[] = await em.query(
          'SELECT id, status FROM quest_event_participants WHERE event_id = $1 AND user_id = $2 FOR UPDATE',
          [event.id, userId],
        );
        if (p.length === 0 || p[0].status !== 1)
          throw new DomainError(QuestErrors.quest_not_completable, 'Only REGISTERED participants of the event can complete its quests');
        scoreTypeId = event.scoreResourceTypeId;
        participantId = p[0].id;
      }
      const inserted: { id: string; completed_at: Date }[] = await em.query(
        `INSERT INTO quest_completions (tenant_id, quest_id, user_id, completed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (quest_id, user_id) DO NOTHING RETURNING id, completed_at`,
        [tenantId, quest.id, userId, this.clock.now()],
      );
      if (inserted.length === 0) {
        const prior: { completed_at: Date }[] = await em.query(
          'SELECT completed_at FROM quest_completions WHERE quest_id = $1 AND user_id = $2',
          [quest.id, userId],
        );
        return { questId: quest.id, userId, completedAt: prior[0].completed_at, created: false, rewards: quest.rewards.map(toRewardDto) };
      }
      const completionId = inserted[0].id;
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
      if (participantId && scoreTypeId) await this.syncScore(em, participantId, scoreTypeId);
      return { questId: quest.id, userId, completedAt: inserted[0].completed_at, created: true, rewards: quest.rewards.map(toRewardDto) };
    });
  }

  private async syncScore(em: EntityManager, participantId: string, scoreTypeId: string): Promise<void> {
    await em.query(
      `UPDATE quest_event_participants p SET score_synced_at = $3, score = COALESCE(
         (SELECT b.earned FROM resource_balances b WHERE b.resource_type_id = $2 AND b.user_id = p.user_id), 0)
       WHERE p.id = $1`,
      [participantId, scoreTypeId, this.clock.now()],
    );
  }

  private async completedSet(userId: string, questIds: string[]): Promise<Set<string>> {
    if (questIds.length === 0) return new Set();
    const rows: { quest_id: string }[] = await this.dataSource.query(
      'SELECT quest_id FROM quest_completions WHERE user_id = $1 AND quest_id = ANY($2::uuid[])',
      [userId, questIds],
    );
    return new Set(rows.map((r) => r.quest_id));
  }

  private async find(tenantId: string, id: string): Promise<Quest> {
    const quest = UUID_RE.test(id) ? await this.dataSource.getRepository(Quest).findOneBy({ tenantId, id: id.toLowerCase() }) : null;
    if (!quest) throw new DomainError(QuestErrors.quest_not_found, `No quest ${id.slice(0, 64)} in this tenant`);
    return quest;
  }

  /** Rewards must name resource types / items of the quest's community. */
  private async checkRewards(tenantId: string, communityId: string, rewards: QuestRewardDto[]): Promise<QuestReward[]> {
    const out: QuestReward[] = [];
    for (const r of rewards) {
      if (r.type === 'resource') {
        const ok: unknown[] = await this.dataSource.query(
          'SELECT 1 FROM resource_types WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
          [r.resourceTypeId, tenantId, communityId],
        );
        if (ok.length === 0)
          throw new DomainError(QuestErrors.invalid_quest, `Resource type ${r.resourceTypeId} is not a resource type of this community`);
        out.push({ type: 'resource', resourceTypeId: r.resourceTypeId!.toLowerCase(), amount: r.amount! });
      } else {
        const ok: unknown[] = await this.dataSource.query(
          'SELECT 1 FROM inventory_items WHERE id = $1 AND tenant_id = $2 AND community_id = $3',
          [r.itemId, tenantId, communityId],
        );
        if (ok.length === 0)
          throw new DomainError(QuestErrors.invalid_quest, `Item ${r.itemId} is not an inventory item of this community`);
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
