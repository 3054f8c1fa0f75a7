import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql, updatedRows } from '../database/repository.js';
import { earnedBeforeSql, earnedOrZeroSql } from '../resources/earned-sql.repository.js';
import { Participant } from './entities/participant.entity.js';

/**
 * Participants of quest events (`quest_event_participants`). Status changes are conditional
 * updates (`status = ANY(from)`), so concurrent requests cannot slip past the transition table.
 * The score syncs copy the earned amount of the event's scoped resource (`resource_balances`,
 * resources) in the same statement: one UPDATE, idempotent and safe to run concurrently.
 */
@Injectable()
export class ParticipantsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The participant row of the user in the event. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2] })
  async findByEventAndUser(eventId: string, userId: string, em?: EntityManager): Promise<Participant | null> {
    return this.manager(em).getRepository(Participant).findOneBy({ eventId, userId });
  }

  /** The participant's id and status, row-locked until commit (a concurrent cancel waits). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2] })
  async lockByEventAndUser(eventId: string, userId: string, em?: EntityManager): Promise<{ id: string; status: number } | null> {
    const p: { id: string; status: number }[] = await this.manager(em).query(
      'SELECT id, status FROM quest_event_participants WHERE event_id = $1 AND user_id = $2 FOR UPDATE',
      [eventId, userId],
    );
    return p[0] ?? null;
  }

  /**
   * Registers the user (a new row, or back from a status `from` allows): whether it did (no row
   * returned = the status changed meanwhile).
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 1, DUMMY.date, [0, 2]] })
  async register(
    tenantId: string,
    eventId: string,
    userId: string,
    status: number,
    now: Date,
    from: number[],
    em?: EntityManager,
  ): Promise<boolean> {
    const rows = await this.manager(em).query<{ id: string }[]>(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, score, registered_at, status_changed_at)
         VALUES ($1, $2, $3, $4, 0, $5, $5)
         ON CONFLICT (event_id, user_id) DO UPDATE SET status = EXCLUDED.status, status_changed_at = EXCLUDED.status_changed_at
           WHERE quest_event_participants.status = ANY($6::smallint[])
         RETURNING id`,
      [tenantId, eventId, userId, status, now, from],
    );
    return rows.length > 0;
  }

  /** Moves the participant from a status of `from` to `to`: whether it did. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 2, DUMMY.date, null, [1]] })
  async changeStatus(
    eventId: string,
    userId: string,
    to: number,
    now: Date,
    dropReason: string | null,
    from: number[],
    em?: EntityManager,
  ): Promise<boolean> {
    const changed = updatedRows<{ id: string }>(
      await this.manager(em).query(
        `UPDATE quest_event_participants SET status = $3, status_changed_at = $4, drop_reason = $5
           WHERE event_id = $1 AND user_id = $2 AND status = ANY($6::smallint[]) RETURNING id`,
        [eventId, userId, to, now, dropReason, from],
      ),
    );
    return changed.length > 0;
  }

  /** The participant's score back to 0 (it left the leaderboard). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.date] })
  async resetScore(participantId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE quest_event_participants SET score = 0, score_synced_at = $2 WHERE id = $1', [participantId, now]);
  }

  /** The REGISTERED participant's score from the earned amount of the scoped resource. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, DUMMY.date] })
  async syncRegisteredScore(participantId: string, scoreTypeId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE quest_event_participants p SET score_synced_at = $3, score = ${earnedOrZeroSql('$2', 'p.user_id')}
         WHERE p.id = $1 AND p.status = 1`,
      [participantId, scoreTypeId, now],
    );
  }

  /** The participant's score from the earned amount of the scoped resource (after a quest completion). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, DUMMY.date] })
  async syncScore(participantId: string, scoreTypeId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE quest_event_participants p SET score_synced_at = $3, score = ${earnedOrZeroSql('$2', 'p.user_id')}
       WHERE p.id = $1`,
      [participantId, scoreTypeId, now],
    );
  }

  /**
   * These REGISTERED participants' final scores (a batch of the event's completion): what they
   * earned of the scoped resource in ledger entries stamped before `before` (the end, or the close
   * when earlier), not the live balance, so a credit after the end cannot decide the standings.
   * One UPDATE; the same batch done again writes the same scores.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, DUMMY.date, DUMMY.date, [DUMMY.uuid3]] })
  async syncEventScores(
    eventId: string,
    scoreTypeId: string | null,
    now: Date,
    before: Date,
    userIds: string[],
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).query(
      `UPDATE quest_event_participants p SET score_synced_at = $3, score = ${earnedBeforeSql('$2', 'p.user_id', '$4')}
         WHERE p.event_id = $1 AND p.status = 1 AND p.user_id = ANY($5::uuid[])`,
      [eventId, scoreTypeId, now, before, userIds],
    );
  }

  /**
   * These REGISTERED participants' places and ranks in the completed event's final standings (a
   * batch of its completion, which ranks them). One UPDATE; the same batch done again writes the same.
   */
  @GenerateSql({ params: [DUMMY.uuid, [DUMMY.uuid2], [1], [1]] })
  async setFinalPlaces(eventId: string, userIds: string[], positions: number[], ranks: number[], em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE quest_event_participants p SET final_position = x.position, final_rank = x.rank
         FROM unnest($2::uuid[], $3::int[], $4::int[]) AS x(user_id, position, rank)
        WHERE p.event_id = $1 AND p.user_id = x.user_id AND p.status = 1`,
      [eventId, userIds, positions, ranks],
    );
  }
}
