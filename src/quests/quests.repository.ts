import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { Quest } from './entities/quest.entity.js';

/** Quests (`quests`) and their completions (`quest_completions`, one per quest and user). */
@Injectable()
export class QuestsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async findById(tenantId: string, id: string, em?: EntityManager): Promise<Quest | null> {
    return this.manager(em).getRepository(Quest).findOneBy({ tenantId, id });
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
  async insert(fields: Partial<Quest>, em?: EntityManager): Promise<Quest> {
    const repo = this.manager(em).getRepository(Quest);
    return repo.save(repo.create(fields));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { name: 'Daily login' }] })
  async update(tenantId: string, id: string, fields: QueryDeepPartialEntity<Quest>, em?: EntityManager): Promise<void> {
    await this.manager(em).getRepository(Quest).update({ id, tenantId }, fields);
  }

  /** Which of the quests the user completed. */
  @GenerateSql({ params: [DUMMY.uuid, [DUMMY.uuid2]] })
  async completedAmong(userId: string, questIds: string[], em?: EntityManager): Promise<Set<string>> {
    const rows: { quest_id: string }[] = await this.manager(em).query(
      'SELECT quest_id FROM quest_completions WHERE user_id = $1 AND quest_id = ANY($2::uuid[])',
      [userId, questIds],
    );
    return new Set(rows.map((r) => r.quest_id));
  }

  /** Records the completion unless the user completed the quest before: the new row, or null. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.date] })
  async insertCompletion(
    tenantId: string,
    questId: string,
    userId: string,
    now: Date,
    em?: EntityManager,
  ): Promise<{ id: string; completed_at: Date } | null> {
    const inserted: { id: string; completed_at: Date }[] = await this.manager(em).query(
      `INSERT INTO quest_completions (tenant_id, quest_id, user_id, completed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (quest_id, user_id) DO NOTHING RETURNING id, completed_at`,
      [tenantId, questId, userId, now],
    );
    return inserted[0] ?? null;
  }

  /** When the user completed the quest (the row exists). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2] })
  async completedAt(questId: string, userId: string, em?: EntityManager): Promise<Date> {
    const prior: { completed_at: Date }[] = await this.manager(em).query(
      'SELECT completed_at FROM quest_completions WHERE quest_id = $1 AND user_id = $2',
      [questId, userId],
    );
    return prior[0].completed_at;
  }
}
