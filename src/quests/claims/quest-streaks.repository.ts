import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../../database/repository.js';

/** Players' streaks of recurring quests (`quest_streaks`). */
@Injectable()
export class QuestStreaksRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Counts a completion of `periodKey` in the player's streak: one more when the last completion
   * was in `previousKey`, unchanged when in this period already, else a new streak of 1. The streak
   * after it. In the completion's transaction, under the row's lock.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, '2026-12-02', '2026-12-01'] })
  async count(
    tenantId: string,
    questId: string,
    userId: string,
    periodKey: string,
    previousKey: string | null,
    em?: EntityManager,
  ): Promise<{ current: number; best: number }> {
    const next = `CASE WHEN quest_streaks.last_period_key = $4 THEN quest_streaks.current
                       WHEN quest_streaks.last_period_key = $5 THEN quest_streaks.current + 1 ELSE 1 END`;
    const [row]: { current: number; best: number }[] = await this.manager(em).query(
      `INSERT INTO quest_streaks (quest_id, user_id, tenant_id, current, best, last_period_key) VALUES ($2, $3, $1, 1, 1, $4)
       ON CONFLICT (quest_id, user_id) DO UPDATE SET current = ${next}, best = GREATEST(quest_streaks.best, ${next}),
         last_period_key = $4, updated_at = now()
       RETURNING current, best`,
      [tenantId, questId, userId, periodKey, previousKey],
    );
    return row;
  }

  /** The player's streak, or null; a streak whose last period is neither `periodKey` nor `previousKey` is broken (current 0). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, '2026-12-02', '2026-12-01'] })
  async find(
    questId: string,
    userId: string,
    periodKey: string,
    previousKey: string | null,
    em?: EntityManager,
  ): Promise<{ current: number; best: number } | null> {
    const rows: { current: number; best: number }[] = await this.manager(em).query(
      `SELECT CASE WHEN last_period_key IN ($3, $4) THEN current ELSE 0 END AS current, best FROM quest_streaks WHERE quest_id = $1 AND user_id = $2`,
      [questId, userId, periodKey, previousKey ?? ''],
    );
    return rows[0] ?? null;
  }
}
