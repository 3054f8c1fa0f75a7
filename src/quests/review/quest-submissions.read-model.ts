import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../../database/repository.js';

export interface SubmissionRow {
  id: string;
  questId: string;
  questName: string;
  communityId: string;
  taskId: string;
  taskTitle: string;
  userId: string;
  handle: string;
  periodKey: string;
  state: string;
  submission: string | null;
  reviewReason: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  submittedAt: Date;
}

/** The review queue: players' submissions with their quest, task and handle (joins quests and users). */
@Injectable()
export class QuestSubmissionsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** A page of the tenant's submissions in one state, oldest first (the queue's order), optionally of one community or quest. */
  @GenerateSql({ params: [DUMMY.tenant, { state: 'pending', communityId: null, questId: null }, DUMMY.page] })
  async page(
    tenantId: string,
    filter: { state: string; communityId: string | null; questId: string | null },
    page: { offset: number; limit: number },
    em?: EntityManager,
  ): Promise<[SubmissionRow[], number]> {
    const m = this.manager(em);
    const where = `p.tenant_id = $1 AND p.state = $2 AND p.submission IS NOT NULL
      AND ($3::uuid IS NULL OR q.community_id = $3) AND ($4::uuid IS NULL OR p.quest_id = $4)`;
    const params = [tenantId, filter.state, filter.communityId, filter.questId];
    const rows: SubmissionRow[] = await m.query(
      `SELECT p.id, p.quest_id AS "questId", q.name AS "questName", q.community_id AS "communityId", p.task_id AS "taskId",
              t.title AS "taskTitle", p.user_id AS "userId", u.handle, p.period_key AS "periodKey", p.state, p.submission,
              p.review_reason AS "reviewReason", p.reviewed_by AS "reviewedBy", p.reviewed_at AS "reviewedAt", p.created_at AS "submittedAt"
       FROM quest_task_progress p
         JOIN quests q ON q.id = p.quest_id
         JOIN quest_tasks t ON t.id = p.task_id
         JOIN users u ON u.id = p.user_id
       WHERE ${where}
       ORDER BY p.created_at ASC, p.id ASC LIMIT $5 OFFSET $6`,
      [...params, page.limit, page.offset],
    );
    const [{ n }]: { n: number }[] = await m.query(
      `SELECT count(*)::int AS n FROM quest_task_progress p JOIN quests q ON q.id = p.quest_id WHERE ${where}`,
      params,
    );
    return [rows, n];
  }
}
