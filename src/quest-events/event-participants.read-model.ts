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
 * The final standings of a completed event, from its REGISTERED participants' frozen scores:
 * score DESC, ties share a rank (RANK(), as the completion ranked them for its tickets: 1, 2, 2, 4)
 * and are listed by user id; a score of 0 is unranked. Read along `ix_participants_standings`
 * (event_id, score DESC, user_id) WHERE status = 1 AND score > 0: the ranks of a page come from the
 * rows before it (every higher score is among them), so a page costs its offset, not the event.
 */
const RANKED = 'event_id = $1 AND status = 1 AND score > 0';

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

  /** The REGISTERED participants of the event, by user id. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async registeredUserIds(eventId: string, em?: EntityManager): Promise<string[]> {
    const rows: { user_id: string }[] = await this.manager(em).query(
      'SELECT user_id FROM quest_event_participants WHERE event_id = $1 AND status = 1 ORDER BY user_id',
      [eventId],
    );
    return rows.map((r) => r.user_id);
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
         FROM batch ORDER BY score DESC, user_id`,
      [eventId, after?.score ?? null, after?.userId ?? null, after?.rank ?? null, after?.position ?? 0, limit],
    );
  }

  /** How many participants a completed event's final standings rank (score > 0). */
  @GenerateSql({ params: [DUMMY.uuid] })
  async rankedCount(eventId: string, em?: EntityManager): Promise<number> {
    const [{ n }] = await this.manager(em).query<{ n: number }[]>(
      `SELECT COUNT(*)::int AS n FROM quest_event_participants WHERE ${RANKED}`,
      [eventId],
    );
    return n;
  }

  /** A page of a completed event's final standings: the page is cut before the names are joined. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async standingsPage(eventId: string, page: PageRequest, em?: EntityManager): Promise<StandingRow[]> {
    return this.manager(em).query<StandingRow[]>(
      `SELECT s.rank::int AS rank, s.user_id, u.handle, u.display_name, s.score::text AS score
         FROM (SELECT p.user_id, p.score, RANK() OVER (ORDER BY p.score DESC) AS rank
                 FROM (SELECT user_id, score FROM quest_event_participants WHERE ${RANKED}
                        ORDER BY score DESC, user_id LIMIT $2::int + $3::int) p
                ORDER BY p.score DESC, p.user_id OFFSET $2 LIMIT $3) s
         JOIN users u ON u.id = s.user_id
        ORDER BY s.score DESC, s.user_id`,
      [eventId, page.offset, page.limit],
    );
  }

  /**
   * The user's place in a completed event's final standings (null: not ranked) and up to `around`
   * places on each side: the places before theirs are counted, then read with their ranks. One statement.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 2] })
  async standingAround(eventId: string, userId: string, around: number, em?: EntityManager): Promise<StandingAroundRow> {
    const [{ r }] = await this.manager(em).query<{ r: StandingAroundRow }[]>(
      `WITH me AS (SELECT user_id, score FROM quest_event_participants WHERE ${RANKED} AND user_id = $2),
       ahead AS (
         SELECT (SELECT COUNT(*) FROM quest_event_participants WHERE ${RANKED} AND score > me.score)
              + (SELECT COUNT(*) FROM quest_event_participants WHERE ${RANKED} AND score = me.score AND user_id < me.user_id) AS n
           FROM me),
       board AS (
         SELECT p.user_id, p.score, RANK() OVER (ORDER BY p.score DESC) AS rank,
                ROW_NUMBER() OVER (ORDER BY p.score DESC, p.user_id) - 1 - (SELECT n FROM ahead) AS side
           FROM (SELECT user_id, score FROM quest_event_participants WHERE ${RANKED}
                  ORDER BY score DESC, user_id LIMIT COALESCE((SELECT n FROM ahead) + $3::int + 1, 0)) p),
       near AS (SELECT * FROM board WHERE side >= -$3::int ORDER BY side LIMIT 2 * $3::int + 1)
       SELECT json_build_object(
         'mine', (SELECT json_build_object('rank', n.rank, 'score', n.score::text) FROM near n WHERE n.side = 0),
         'rows', (SELECT json_agg(json_build_object('side', n.side, 'rank', n.rank, 'user_id', n.user_id, 'handle', u.handle,
                                                    'display_name', u.display_name, 'score', n.score::text) ORDER BY n.side)
                    FROM near n JOIN users u ON u.id = n.user_id WHERE n.side <> 0)) AS r`,
      [eventId, userId, around],
    );
    return r;
  }
}
