import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/** A line of a completed event's final standings; `score` as text (bigint). */
export interface StandingRow {
  rank: number;
  user_id: string;
  handle: string;
  display_name: string | null;
  score: string;
}

/** The player's place in the final standings (`mine` null: not ranked) and the places around it. */
export interface StandingAroundRow {
  mine: { rank: number; score: string } | null;
  /** In standings order, `side` < 0 above the player, > 0 below. */
  rows: (StandingRow & { side: number })[] | null;
}

/**
 * The ranked participants of an event, in the order of its final standings: REGISTERED with a
 * score, score DESC, ties sharing a rank (RANK(): 1, 2, 2, 4) and listed by user id; a score of 0
 * is unranked. Read along `ix_participants_standings` (event_id, score DESC, user_id) WHERE
 * status = 1 AND score > 0 by the completion, which ranks them in batches (`rankedAfter`) and
 * stores each one's place and rank (participation's `final_position`, `final_rank`).
 */
const RANKED = 'event_id = $1 AND status = 1 AND score > 0';
/** A completed event's final standings as its completion stored them: a range of `ix_participants_final_position`. */
const PLACED = 'event_id = $1 AND final_position IS NOT NULL';

/**
 * The participants of quest events as the events module shows them (the caller's status on an
 * event, the list filter `participating`, whom completion notifies). Reads only:
 * `quest_event_participants` (participation). Participation changes them through its own service.
 */
@Injectable()
export class EventParticipantsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The events the user is REGISTERED in, by id (a handful, by index). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async registeredEventIds(tenantId: string, userId: string, em?: EntityManager): Promise<string[]> {
    const rows: { event_id: string }[] = await this.manager(em).query(
      'SELECT event_id FROM quest_event_participants WHERE tenant_id = $1 AND user_id = $2 AND status = 1 ORDER BY event_id',
      [tenantId, userId],
    );
    return rows.map((r) => r.event_id);
  }

  /** The user's participant status per event (events without a row are absent). */
  @GenerateSql({ params: [[DUMMY.uuid], DUMMY.uuid2] })
  async statuses(eventIds: string[], userId: string, em?: EntityManager): Promise<Map<string, number>> {
    const rows: { event_id: string; status: number }[] = await this.manager(em).query(
      'SELECT event_id, status FROM quest_event_participants WHERE user_id = $1 AND event_id = ANY($2::uuid[])',
      [userId, eventIds],
    );
    return new Map(rows.map((r) => [r.event_id, r.status]));
  }

  /**
   * The next `limit` REGISTERED participants of the event after `afterUserId` (null: from the
   * first), by user id, with a score of at most 0 when `unrankedOnly`: a range of
   * `uq_participants_event_user`. A completion's batches.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 5000, false] })
  async registeredAfter(
    eventId: string,
    afterUserId: string | null,
    limit: number,
    unrankedOnly: boolean,
    em?: EntityManager,
  ): Promise<string[]> {
    const rows: { user_id: string }[] = await this.manager(em).query(
      `SELECT user_id FROM quest_event_participants
        WHERE event_id = $1 AND status = 1 AND ($2::uuid IS NULL OR user_id > $2::uuid) AND (NOT $4 OR score <= 0)
        ORDER BY user_id LIMIT $3`,
      [eventId, afterUserId, limit, unrankedOnly],
    );
    return rows.map((r) => r.user_id);
  }

  /**
   * The next `limit` places of the final standings after the place `after` (null: from the top),
   * with their ranks: the rule of the standings (score DESC, ties share a rank and are listed by
   * user id; a score of 0 is unranked) read along `ix_participants_standings` in batches. Each
   * batch goes on from the last one's place: `position` places before it, the last of them at
   * `score` and `rank`, so a tie across two batches keeps its rank. A completion's batches.
   */
  @GenerateSql({ params: [DUMMY.uuid, { userId: DUMMY.uuid2, score: '10', rank: 3, position: 4 }, 5000] })
  async rankedAfter(
    eventId: string,
    after: { userId: string; score: string; rank: number; position: number } | null,
    limit: number,
    em?: EntityManager,
  ): Promise<{ user_id: string; score: string; rank: number }[]> {
    return this.manager(em).query(
      `WITH next AS (
         (SELECT user_id, score FROM quest_event_participants
           WHERE ${RANKED} AND score = $2::bigint AND user_id > $3::uuid ORDER BY user_id LIMIT $6)
         UNION ALL
         (SELECT user_id, score FROM quest_event_participants
           WHERE ${RANKED} AND ($2::bigint IS NULL OR score < $2::bigint) ORDER BY score DESC, user_id LIMIT $6)),
       batch AS (SELECT user_id, score FROM next ORDER BY score DESC, user_id LIMIT $6)
       SELECT user_id, score::text AS score,
              (CASE WHEN score = $2::bigint THEN $4::int ELSE $5::int + RANK() OVER (ORDER BY score DESC) END)::int AS rank
         FROM batch ORDER BY batch.score DESC, batch.user_id`,
      [eventId, after?.score ?? null, after?.userId ?? null, after?.rank ?? null, after?.position ?? 0, limit],
    );
  }

  /** How many participants a completed event's final standings rank (score > 0): its last place. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async rankedCount(eventId: string, em?: EntityManager): Promise<number> {
    const [{ n }] = await this.manager(em).query<{ n: number }[]>(
      `SELECT COALESCE((SELECT final_position FROM quest_event_participants WHERE ${PLACED} ORDER BY final_position DESC LIMIT 1), 0) AS n`,
      [eventId],
    );
    return n;
  }

  /** A page of a completed event's final standings: a range of places. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async standingsPage(eventId: string, page: PageRequest, em?: EntityManager): Promise<StandingRow[]> {
    return this.manager(em).query<StandingRow[]>(
      `SELECT p.final_rank AS rank, p.user_id, u.handle, u.display_name, p.score::text AS score
         FROM quest_event_participants p JOIN users u ON u.id = p.user_id
        WHERE p.event_id = $1 AND p.final_position IS NOT NULL AND p.final_position > $2::int AND p.final_position <= $2::int + $3::int
        ORDER BY p.final_position`,
      [eventId, page.offset, page.limit],
    );
  }

  /**
   * The user's place in a completed event's final standings (null: not ranked) and up to `around`
   * places on each side: a range of places around theirs. One statement.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 2] })
  async standingAround(eventId: string, userId: string, around: number, em?: EntityManager): Promise<StandingAroundRow> {
    const [{ r }] = await this.manager(em).query<{ r: StandingAroundRow }[]>(
      // The player's row by its unique key, then a range of places around theirs: bounds as values
      // (InitPlans), so the index reads the range itself, and the names of those few rows only.
      `WITH mine AS MATERIALIZED (SELECT final_position, final_rank, score FROM quest_event_participants WHERE event_id = $1 AND user_id = $2),
       me AS (SELECT * FROM mine WHERE final_position IS NOT NULL),
       near AS (
         SELECT x.side, x.rank, x.user_id, u.handle, u.display_name, x.score
           FROM (SELECT p.final_position - (SELECT final_position FROM me) AS side, p.final_rank AS rank, p.user_id, p.score
                   FROM quest_event_participants p
                  WHERE p.event_id = $1 AND p.final_position BETWEEN (SELECT final_position FROM me) - $3::int AND (SELECT final_position FROM me) + $3::int
                    AND p.final_position <> (SELECT final_position FROM me)
                  ORDER BY p.final_position LIMIT 2 * $3::int) x
           JOIN users u ON u.id = x.user_id)
       SELECT json_build_object(
         'mine', (SELECT json_build_object('rank', me.final_rank, 'score', me.score::text) FROM me),
         'rows', (SELECT json_agg(json_build_object('side', n.side, 'rank', n.rank, 'user_id', n.user_id, 'handle', n.handle,
                                                    'display_name', n.display_name, 'score', n.score::text) ORDER BY n.side)
                    FROM near n)) AS r`,
      [eventId, userId, around],
    );
    return r;
  }
}
