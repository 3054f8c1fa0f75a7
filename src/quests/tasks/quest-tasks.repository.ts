import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { BaseRepository, DUMMY, GenerateSql, updatedRows } from '../../database/repository.js';
import { QuestTaskProgress, type TaskState } from '../entities/quest-task-progress.entity.js';
import { QuestTask } from '../entities/quest-task.entity.js';

/** One row of a player's progress, as the services read it. */
export type ProgressRow = Pick<
  QuestTaskProgress,
  'id' | 'taskId' | 'state' | 'attempts' | 'retryAt' | 'submission' | 'reviewReason' | 'reviewedAt' | 'doneAt'
>;

const PROGRESS_COLUMNS = `id, task_id AS "taskId", state, attempts, retry_at AS "retryAt", submission, review_reason AS "reviewReason",
  reviewed_at AS "reviewedAt", done_at AS "doneAt"`;

/** The tasks of quests (`quest_tasks`) and the players' progress on them (`quest_task_progress`). */
@Injectable()
export class QuestTasksRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The quest's tasks in their order. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findTasks(tenantId: string, questId: string, em?: EntityManager): Promise<QuestTask[]> {
    return this.manager(em)
      .getRepository(QuestTask)
      .find({ where: { tenantId, questId }, order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  findTask(tenantId: string, questId: string, id: string, em?: EntityManager): Promise<QuestTask | null> {
    return this.manager(em).getRepository(QuestTask).findOneBy({ tenantId, questId, id });
  }

  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, questId: DUMMY.uuid, kind: 'visit', title: 'Read the rules', settings: {} }] })
  insertTask(fields: Partial<QuestTask>, em?: EntityManager): Promise<QuestTask> {
    const repo = this.manager(em).getRepository(QuestTask);
    return repo.save(repo.create(fields));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { title: 'Read the rules' }] })
  async updateTask(tenantId: string, id: string, fields: QueryDeepPartialEntity<QuestTask>, em?: EntityManager): Promise<void> {
    await this.manager(em).getRepository(QuestTask).update({ tenantId, id }, fields);
  }

  /** Deletes the task and, with it, every player's progress on it; whether it existed. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async deleteTask(tenantId: string, questId: string, id: string, em?: EntityManager): Promise<boolean> {
    const res = await this.manager(em).getRepository(QuestTask).delete({ tenantId, questId, id });
    return (res.affected ?? 0) > 0;
  }

  /** Counts the quest's tasks again into `quests.task_count`. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async recount(tenantId: string, questId: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      'UPDATE quests SET task_count = (SELECT count(*) FROM quest_tasks WHERE quest_id = $2) WHERE tenant_id = $1 AND id = $2',
      [tenantId, questId],
    );
  }

  // ---- progress

  /** A player's progress on the quest's tasks in one period. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 'once'] })
  findProgress(tenantId: string, questId: string, userId: string, periodKey: string, em?: EntityManager): Promise<ProgressRow[]> {
    return this.manager(em).query(
      `SELECT ${PROGRESS_COLUMNS} FROM quest_task_progress WHERE tenant_id = $1 AND quest_id = $2 AND user_id = $3 AND period_key = $4`,
      [tenantId, questId, userId, periodKey],
    );
  }

  /**
   * Marks the task done for the player in the period; true only for the call that made it done
   * (a task verified twice at once is reported once).
   */
  @GenerateSql({
    params: [{ tenantId: DUMMY.tenant, questId: DUMMY.uuid, taskId: DUMMY.uuid2, userId: DUMMY.uuid3, periodKey: 'once' }, DUMMY.date],
  })
  async markDone(p: ProgressKey, now: Date, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      `INSERT INTO quest_task_progress (tenant_id, quest_id, task_id, user_id, period_key, state, done_at)
         VALUES ($1, $2, $3, $4, $5, 'done', $6)
       ON CONFLICT (task_id, user_id, period_key) DO UPDATE SET state = 'done', done_at = $6, retry_at = NULL, updated_at = now()
         WHERE quest_task_progress.state <> 'done'
       RETURNING id`,
      [p.tenantId, p.questId, p.taskId, p.userId, p.periodKey, now],
    );
    return rows.length > 0;
  }

  /**
   * Takes one answer attempt of the player: counts it and sets the wait after it (lifted again
   * when the answer is right), unless the task is done, the player is waiting, or the attempts are
   * used up. One statement, so concurrent answers cannot pass the limit or the wait. The attempts
   * so far, or null when refused.
   */
  @GenerateSql({
    params: [
      { tenantId: DUMMY.tenant, questId: DUMMY.uuid, taskId: DUMMY.uuid2, userId: DUMMY.uuid3, periodKey: 'once' },
      DUMMY.date,
      3,
      60,
    ],
  })
  async takeAttempt(
    p: ProgressKey,
    now: Date,
    maxAttempts: number | null,
    waitSeconds: number,
    em?: EntityManager,
  ): Promise<number | null> {
    const m = this.manager(em);
    await m.query(
      `INSERT INTO quest_task_progress (tenant_id, quest_id, task_id, user_id, period_key, state)
         VALUES ($1, $2, $3, $4, $5, 'failed') ON CONFLICT (task_id, user_id, period_key) DO NOTHING`,
      [p.tenantId, p.questId, p.taskId, p.userId, p.periodKey],
    );
    const rows = updatedRows<{ attempts: number }>(
      await m.query(
        `UPDATE quest_task_progress SET attempts = attempts + 1, retry_at = $6::timestamptz + make_interval(secs => $8), updated_at = now()
         WHERE task_id = $3 AND user_id = $4 AND period_key = $5 AND tenant_id = $1 AND quest_id = $2
           AND state <> 'done' AND (retry_at IS NULL OR retry_at <= $6) AND ($7::int IS NULL OR attempts < $7)
         RETURNING attempts`,
        [p.tenantId, p.questId, p.taskId, p.userId, p.periodKey, now, maxAttempts, waitSeconds],
      ),
    );
    return rows[0]?.attempts ?? null;
  }

  /** A right answer: done, the wait lifted; true when this call made it done. */
  @GenerateSql({
    params: [{ tenantId: DUMMY.tenant, questId: DUMMY.uuid, taskId: DUMMY.uuid2, userId: DUMMY.uuid3, periodKey: 'once' }, DUMMY.date],
  })
  async answerRight(p: ProgressKey, now: Date, em?: EntityManager): Promise<boolean> {
    const rows = updatedRows<{ id: string }>(
      await this.manager(em).query(
        `UPDATE quest_task_progress SET state = 'done', done_at = $6, retry_at = NULL, updated_at = now()
         WHERE task_id = $3 AND user_id = $4 AND period_key = $5 AND tenant_id = $1 AND quest_id = $2 AND state <> 'done'
         RETURNING id`,
        [p.tenantId, p.questId, p.taskId, p.userId, p.periodKey, now],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Stores a submission (`pending`, or `done` when approved at once), replacing a pending or
   * rejected one; a done task keeps its state. The row, or null when the task was done already.
   */
  @GenerateSql({
    params: [
      { tenantId: DUMMY.tenant, questId: DUMMY.uuid, taskId: DUMMY.uuid2, userId: DUMMY.uuid3, periodKey: 'once' },
      'https://x.com/p/1',
      'pending',
      DUMMY.date,
    ],
  })
  async submit(
    p: ProgressKey,
    content: string,
    state: Extract<TaskState, 'pending' | 'done'>,
    now: Date,
    em?: EntityManager,
  ): Promise<ProgressRow | null> {
    const rows: ProgressRow[] = await this.manager(em).query(
      `INSERT INTO quest_task_progress (tenant_id, quest_id, task_id, user_id, period_key, state, submission, done_at)
         VALUES ($1, $2, $3, $4, $5, $7::varchar, $6, CASE WHEN $7::varchar = 'done' THEN $8::timestamptz END)
       ON CONFLICT (task_id, user_id, period_key) DO UPDATE SET state = $7::varchar, submission = $6, review_reason = NULL, reviewed_by = NULL,
           reviewed_at = NULL, done_at = CASE WHEN $7::varchar = 'done' THEN $8::timestamptz END, created_at = $8, updated_at = now()
         WHERE quest_task_progress.state <> 'done'
       RETURNING ${PROGRESS_COLUMNS}`,
      [p.tenantId, p.questId, p.taskId, p.userId, p.periodKey, content, state, now],
    );
    return rows[0] ?? null;
  }

  /**
   * An operator's decision on a pending submission: done or rejected with a reason. The decided
   * row with its key, or null when it is not pending (decided already, or resubmitted meanwhile).
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, true, 'Nice thread', 'api-key:0123456789ab', DUMMY.date] })
  async review(
    tenantId: string,
    id: string,
    approve: boolean,
    reason: string | null,
    actor: string,
    now: Date,
    em?: EntityManager,
  ): Promise<(ProgressRow & ProgressKey & { submittedAt: Date }) | null> {
    const rows = updatedRows<ProgressRow & ProgressKey & { submittedAt: Date }>(
      await this.manager(em).query(
        `UPDATE quest_task_progress SET state = CASE WHEN $3 THEN 'done' ELSE 'rejected' END, review_reason = $4, reviewed_by = $5,
             reviewed_at = $6, done_at = CASE WHEN $3 THEN $6::timestamptz END, updated_at = now()
         WHERE tenant_id = $1 AND id = $2 AND state = 'pending'
         RETURNING ${PROGRESS_COLUMNS}, tenant_id AS "tenantId", quest_id AS "questId", user_id AS "userId", period_key AS "periodKey",
           created_at AS "submittedAt"`,
        [tenantId, id, approve, reason, actor, now],
      ),
    );
    return rows[0] ?? null;
  }
}

/** Which task of which player in which period. */
export interface ProgressKey {
  tenantId: string;
  questId: string;
  taskId: string;
  userId: string;
  periodKey: string;
}
