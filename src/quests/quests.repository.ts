import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DUMMY, GenerateSql } from '../database/repository.js';
import { type InTenant, TenantScoped, TenantScopedRepository } from '../database/tenant-scoped.repository.js';
import { Quest } from './entities/quest.entity.js';

/** Quests (`quests`) and their completions (`quest_completions`, one per quest and user). */
@Injectable()
@TenantScoped(Quest)
export class QuestsRepository extends TenantScopedRepository<Quest> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The quest of the community by name (the demo seed's lookup). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'Daily login'] })
  async findByName(tenantId: string, communityId: string, name: string, em?: EntityManager): Promise<Quest | null> {
    return this.manager(em).getRepository(Quest).findOneBy({ tenantId, communityId, name });
  }

  /** The event's active quests, oldest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async findActiveOfEvent(tenantId: string, questEventId: string, em?: EntityManager): Promise<Quest[]> {
    return this.manager(em)
      .getRepository(Quest)
      .find({ where: { tenantId, questEventId, status: 'active' }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** A page of the community's quests (every status), oldest first, and the total. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  async findPageInCommunity(tenantId: string, communityId: string, page: PageRequest, em?: EntityManager): Promise<[Quest[], number]> {
    return this.manager(em)
      .getRepository(Quest)
      .findAndCount({
        where: { tenantId, communityId },
        order: { createdAt: 'ASC', id: 'ASC' },
        skip: page.offset,
        take: page.limit,
      });
  }

  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, communityId: DUMMY.uuid, name: 'Daily login', type: 'daily' }] })
  async insert(fields: InTenant<Partial<Quest>>, em?: EntityManager): Promise<Quest> {
    const repo = this.manager(em).getRepository(Quest);
    return repo.save(repo.create(fields));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { name: 'Daily login' }] })
  async update(tenantId: string, id: string, fields: QueryDeepPartialEntity<Quest>, em?: EntityManager): Promise<void> {
    await this.manager(em).getRepository(Quest).update({ id, tenantId }, fields);
  }

  /** Which of the (quest, period) pairs the user completed: the `questId:periodKey` of each completed. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2], ['once']] })
  async completedAmong(
    tenantId: string,
    userId: string,
    questIds: string[],
    periodKeys: string[],
    em?: EntityManager,
  ): Promise<Set<string>> {
    const rows: { k: string }[] = await this.manager(em).query(
      `SELECT c.quest_id || ':' || c.period_key AS k FROM quest_completions c
       JOIN unnest($3::uuid[], $4::varchar[]) AS q(quest_id, period_key) ON q.quest_id = c.quest_id AND q.period_key = c.period_key
       WHERE c.user_id = $2 AND c.tenant_id = $1`,
      [tenantId, userId, questIds, periodKeys],
    );
    return new Set(rows.map((r) => r.k));
  }

  /** Records the completion of the period unless the user completed it before: the new row, or null. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 'once', DUMMY.date] })
  async insertCompletion(
    tenantId: string,
    questId: string,
    userId: string,
    periodKey: string,
    now: Date,
    em?: EntityManager,
  ): Promise<{ id: string; completed_at: Date } | null> {
    const inserted: { id: string; completed_at: Date }[] = await this.manager(em).query(
      `INSERT INTO quest_completions (tenant_id, quest_id, user_id, period_key, completed_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (quest_id, user_id, period_key) DO NOTHING RETURNING id, completed_at`,
      [tenantId, questId, userId, periodKey, now],
    );
    return inserted[0] ?? null;
  }

  /** When the user completed the quest in the period (the row exists). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 'once'] })
  async completedAt(tenantId: string, questId: string, userId: string, periodKey: string, em?: EntityManager): Promise<Date> {
    const prior: { completed_at: Date }[] = await this.manager(em).query(
      'SELECT completed_at FROM quest_completions WHERE quest_id = $2 AND user_id = $3 AND period_key = $4 AND tenant_id = $1',
      [tenantId, questId, userId, periodKey],
    );
    return prior[0].completed_at;
  }

  /** The user's completion of the quest in the period, or null. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 'once'] })
  async findCompletion(
    tenantId: string,
    questId: string,
    userId: string,
    periodKey: string,
    em?: EntityManager,
  ): Promise<{ id: string; completedAt: Date } | null> {
    const rows: { id: string; completedAt: Date }[] = await this.manager(em).query(
      'SELECT id, completed_at AS "completedAt" FROM quest_completions WHERE quest_id = $2 AND user_id = $3 AND period_key = $4 AND tenant_id = $1',
      [tenantId, questId, userId, periodKey],
    );
    return rows[0] ?? null;
  }

  /** How often the user completed the quest, and when last. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async completionStats(
    tenantId: string,
    questId: string,
    userId: string,
    em?: EntityManager,
  ): Promise<{ count: number; last: Date | null }> {
    const [row]: { count: number; last: Date | null }[] = await this.manager(em).query(
      'SELECT count(*)::int AS count, max(completed_at) AS last FROM quest_completions WHERE quest_id = $2 AND user_id = $3 AND tenant_id = $1',
      [tenantId, questId, userId],
    );
    return row;
  }

  /** Which of the quests the user completed at least once, in any period. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2]] })
  async completedEver(tenantId: string, userId: string, questIds: string[], em?: EntityManager): Promise<Set<string>> {
    if (questIds.length === 0) return new Set();
    const rows: { quest_id: string }[] = await this.manager(em).query(
      'SELECT DISTINCT quest_id FROM quest_completions WHERE user_id = $2 AND quest_id = ANY($3::uuid[]) AND tenant_id = $1',
      [tenantId, userId, questIds],
    );
    return new Set(rows.map((r) => r.quest_id));
  }

  /** A page of the user's completions, newest first, with each quest's name and community, and the total. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  async history(
    tenantId: string,
    userId: string,
    page: { offset: number; limit: number },
    em?: EntityManager,
  ): Promise<[CompletionHistoryRow[], number]> {
    const m = this.manager(em);
    const rows: CompletionHistoryRow[] = await m.query(
      `SELECT c.id AS "completionId", c.quest_id AS "questId", q.name AS "questName", q.community_id AS "communityId",
              q.quest_event_id AS "questEventId", c.period_key AS "periodKey", c.completed_at AS "completedAt"
       FROM quest_completions c JOIN quests q ON q.id = c.quest_id
       WHERE c.tenant_id = $1 AND c.user_id = $2
       ORDER BY c.completed_at DESC, c.id DESC LIMIT $3 OFFSET $4`,
      [tenantId, userId, page.limit, page.offset],
    );
    const [{ n }]: { n: number }[] = await m.query(
      'SELECT count(*)::int AS n FROM quest_completions WHERE tenant_id = $1 AND user_id = $2',
      [tenantId, userId],
    );
    return [rows, n];
  }
}

export interface CompletionHistoryRow {
  completionId: string;
  questId: string;
  questName: string;
  communityId: string;
  questEventId: string | null;
  periodKey: string;
  completedAt: Date;
}
