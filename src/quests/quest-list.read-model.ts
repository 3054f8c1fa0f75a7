import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { findPageFast } from '../database/find-one-fast.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { Quest } from './entities/quest.entity.js';

/** The community list's order: featured first, then oldest first (index `ix_quests_active_order`). */
const QUEST_ORDER = 'q.featured DESC, q.created_at ASC, q.id ASC';

/**
 * What players are shown of a community's quests: active ones, and of an event's quests only those
 * whose event is published. A draft event is invisible to players (404), and a cancelled or
 * completed one can no longer be completed, so their quests are left out.
 */
function shown(tenant: string, community: string): string[] {
  return [
    `q.tenant_id = ${tenant}`,
    `q.community_id = ${community}`,
    `q.status = 'active'`,
    `(q.quest_event_id IS NULL OR EXISTS (SELECT 1 FROM quest_events e WHERE e.id = q.quest_event_id AND e.tenant_id = q.tenant_id AND e.state = 'published'))`,
  ];
}

/** The filters of a community's quest list (`questListQuery`). */
export interface QuestListFilter {
  tags: string[];
  types: string[];
  featured?: boolean;
  /** ILIKE pattern over name and description, escaped. */
  like?: string;
}

/** One page's query of the quest list: the FROM/WHERE text and its parameters (what the list cache keys on). */
export interface QuestListQuery {
  from: string;
  params: unknown[];
}

/** The FROM ... WHERE of a community's shown quests, filtered. Pure: the page is read by `findListPage`. */
export function questListQuery(tenantId: string, communityId: string, f: QuestListFilter): QuestListQuery {
  const params: unknown[] = [tenantId, communityId];
  const where = shown('$1', '$2');
  const add = (sql: (p: string) => string, v: unknown) => {
    params.push(v);
    where.push(sql(`$${params.length}`));
  };
  if (f.tags.length) add((p) => `q.tags && ${p}::text[]`, f.tags);
  if (f.types.length) add((p) => `q.type = ANY(${p}::text[])`, f.types);
  if (f.featured !== undefined) add((p) => `q.featured = ${p}`, f.featured);
  if (f.like !== undefined) add((p) => `(q.name ILIKE ${p} OR q.description ILIKE ${p})`, f.like);
  return { from: `FROM quests q WHERE ${where.join(' AND ')}`, params };
}

/**
 * The players' quest list and the tags' source: the community's quests as `shown`. Reads
 * `quests` and `quest_events` (quest-events), for an event's state.
 */
@Injectable()
export class QuestListReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** One page of the quest list (`questListQuery`), featured first then oldest first, and the total. */
  @GenerateSql({ params: [questListQuery(DUMMY.tenant, DUMMY.uuid, { tags: [], types: [] }), DUMMY.page] })
  async findListPage(q: QuestListQuery, page: PageRequest, em?: EntityManager): Promise<{ rows: Quest[]; total: number }> {
    return findPageFast(this.manager(em), Quest, { alias: 'q', order: QUEST_ORDER, ...q, page });
  }

  /** Every quest of the community players are shown (the tags' statistics). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async findShownInCommunity(tenantId: string, communityId: string, em?: EntityManager): Promise<Quest[]> {
    return this.manager(em)
      .getRepository(Quest)
      .createQueryBuilder('q')
      .where(shown(':tenantId', ':communityId').join(' AND '), { tenantId, communityId })
      .getMany();
  }
}
