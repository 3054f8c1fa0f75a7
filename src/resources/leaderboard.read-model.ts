import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { preparedQuery } from '../database/prepared-query.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { RANK_BITS, RANK_LEVELS } from './rank-buckets.js';

interface LeaderRow {
  user_id: string;
  handle: string;
  display_name: string | null;
  earned: string;
}
export interface NeighbourRow extends LeaderRow {
  side: 'above' | 'below';
}
export interface LeaderboardPageRow {
  rows: LeaderRow[] | null;
  /** How many ranked users score above the page's first row. */
  first: string | null;
  total: string;
}
export interface AroundRow {
  mine: { earned: string; balance: string } | null;
  rows: NeighbourRow[] | null;
  /** For each score involved: how many ranked users score above it. */
  counts: Record<string, string>;
}
/** A user's ranked values as the Redis rank store copies them: decimal text, `at` = earned_at in microseconds. */
export interface RankSourceRow {
  user_id: string;
  earned: string;
  at: string;
}
export interface StandingRow {
  position: number;
  user_id: string;
  handle: string;
  display_name: string | null;
  score: string;
}
export interface StandingsAroundRow {
  mine: { position: number; score: string } | null;
  balance: string | null;
  rows: StandingRow[] | null;
}
export interface PeopleRow {
  users: { id: string; handle: string; display_name: string | null }[] | null;
  mine: { earned: string; balance: string } | null;
}

/** `earned_at` in whole microseconds since the epoch (exact: extract() is numeric). */
const AT_MICROS = `(extract(epoch FROM b.earned_at) * 1000000)::bigint::text`;

/** Where a board's scores are: the all-time board (`resource_balances`) or a season's (`season_scores`). */
interface BoardSource {
  table: string;
  board: string;
  score: string;
  at: string;
}
const BALANCES: BoardSource = { table: 'resource_balances', board: 'resource_type_id', score: 'earned', at: 'earned_at' };
const SEASON: BoardSource = { table: 'season_scores', board: 'season_id', score: 'score', at: 'reached_at' };

/**
 * SQL of "the number of ranked users with a score strictly above `score`" (an SQL expression;
 * `$1` is the resource type): the prefix counters plus the pending deltas, at most 15 buckets per
 * level (see rank-buckets.ts).
 */
const aboveSql = (score: string) => {
  // One LATERAL range scan per level: the bounds depend on the level, and as a plain join the
  // planner cannot see how narrow they are (it chose a parallel seq scan of the whole table).
  const perLevel = (table: string, col: string) => `(SELECT COALESCE(SUM(x.c), 0) FROM generate_series(0, (SELECT lmax FROM lv)) AS l(lvl)
    CROSS JOIN LATERAL (SELECT SUM(t.${col}) AS c FROM ${table} t WHERE t.resource_type_id = $1 AND t.level = l.lvl
      AND t.bucket > (${score} >> (${RANK_BITS} * l.lvl)) AND t.bucket <= (((${score} >> (${RANK_BITS} * (l.lvl + 1))) << ${RANK_BITS}) + 15)) x)`;
  return `(${perLevel('resource_rank_buckets', 'count')} + CASE WHEN (SELECT has_deltas FROM lv) THEN ${perLevel('resource_rank_bucket_deltas', 'delta')} ELSE 0 END)`;
};

/**
 * The `lv` CTE that `aboveSql` reads: the highest level that can hold a non-zero bucket (levels
 * above the top score's are empty, counters and deltas alike: 4 levels instead of 14 for scores
 * up to a million) and whether any delta is pending (most of the time none is).
 */
const lvCte = (src: BoardSource) => `lv AS (
  SELECT (SELECT COUNT(*) FROM generate_series(1, ${RANK_LEVELS - 1}) k WHERE (top.s >> (${RANK_BITS} * k)) > 0)::int AS lmax,
         EXISTS (SELECT 1 FROM resource_rank_bucket_deltas d WHERE d.resource_type_id = $1) AS has_deltas
  FROM (SELECT COALESCE((SELECT b.${src.score} FROM ${src.table} b WHERE b.${src.board} = $1 AND b.${src.score} > 0
                         ORDER BY b.${src.score} DESC, b.${src.at} ASC, b.user_id ASC LIMIT 1), 0) AS s) top)`;
const LV_CTE = lvCte(BALANCES);

/**
 * The statement of a user's row on a board, up to `limit` neighbours on each side (index range
 * scans from the user's own score) and the prefix-counter rank of every score involved, as one
 * JSON value `r`. `mine` selects the user's `earned`, `balance` and `earned_at`; `$1` is the
 * board, `$2` the user. `limit` is a literal, not a parameter: the prepared statement's generic
 * plan then knows each LIMIT is tiny (a parameter is assumed to fetch 10 % of the table).
 */
const aroundSql = (src: BoardSource, mine: string, limit: number) => {
  const b = (col: 'score' | 'at') => `b.${src[col]}`;
  const side = (
    name: 'above' | 'below',
    where: string,
    order: string,
  ) => `(SELECT '${name}' AS side, b.user_id, ${b('score')} AS earned, ${b('at')} AS earned_at FROM ${src.table} b
              WHERE b.${src.board} = $1 AND ${b('score')} > 0 AND ${where}
              ORDER BY ${order} LIMIT ${limit})`;
  return `WITH ${lvCte(src)},
       mine AS (${mine}),
       m AS (SELECT earned, earned_at FROM mine WHERE earned > 0),
       -- Each side is a LATERAL subquery, so its LIMIT applies to an index range that starts at
       -- the user's own score (a plain join would walk the index from the top and filter).
       nb AS (
         SELECT x.side, x.user_id, u.handle, u.display_name, x.earned, x.earned_at FROM m CROSS JOIN LATERAL (
           ${side('above', `${b('score')} = m.earned AND (${b('at')}, b.user_id) < (m.earned_at, $2::uuid)`, `${b('at')} DESC, b.user_id DESC`)}
           UNION ALL
           ${side('above', `${b('score')} > m.earned`, `${b('score')} ASC, ${b('at')} DESC, b.user_id DESC`)}
           UNION ALL
           ${side('below', `${b('score')} = m.earned AND (${b('at')}, b.user_id) > (m.earned_at, $2::uuid)`, `${b('at')} ASC, b.user_id ASC`)}
           UNION ALL
           ${side('below', `${b('score')} < m.earned`, `${b('score')} DESC, ${b('at')} ASC, b.user_id ASC`)}) x
         JOIN users u ON u.id = x.user_id),
       scores AS (SELECT DISTINCT s FROM (SELECT 0::bigint UNION ALL SELECT earned FROM m UNION ALL SELECT earned FROM nb) z(s)),
       counted AS (SELECT s, ${aboveSql('scores.s')} AS above FROM scores)
       SELECT json_build_object(
         'mine', (SELECT json_build_object('earned', earned::text, 'balance', balance::text) FROM mine),
         'rows', (SELECT json_agg(json_build_object('side', side, 'user_id', user_id, 'handle', handle, 'display_name', display_name, 'earned', earned::text)
                    ORDER BY earned DESC, earned_at ASC, user_id ASC) FROM nb),
         'counts', (SELECT json_object_agg(s::text, above::text) FROM counted)) AS r`;
};

/**
 * The leaderboard reads (the all-time boards, and the live and frozen season boards): ranks from the prefix counters (`resource_rank_buckets` and their pending
 * `resource_rank_bucket_deltas`) with `resource_balances` (this module) and the handles of `users`
 * (users module), each read one statement, so one snapshot and one round trip.
 */
@Injectable()
export class LeaderboardReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * A page of ranked users: the page is read from the rank index alone (index-only scan) and only
   * its rows are joined to users.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async page(resourceTypeId: string, page: PageRequest, em?: EntityManager): Promise<LeaderboardPageRow> {
    // Not prepared: a generic plan does not know OFFSET/LIMIT and sorts the whole table.
    const [{ r }]: { r: LeaderboardPageRow }[] = await this.manager(em).query(
      `WITH ${LV_CTE},
       pg AS (
         SELECT b.user_id, b.earned, b.earned_at FROM resource_balances b
         WHERE b.resource_type_id = $1 AND b.earned > 0
         ORDER BY b.earned DESC, b.earned_at ASC, b.user_id ASC OFFSET $2 LIMIT $3),
       first AS (SELECT max(earned) AS s FROM pg)
       SELECT json_build_object(
         'rows', (SELECT json_agg(json_build_object('user_id', pg.user_id, 'handle', u.handle, 'display_name', u.display_name, 'earned', pg.earned::text)
                    ORDER BY pg.earned DESC, pg.earned_at ASC, pg.user_id ASC) FROM pg JOIN users u ON u.id = pg.user_id),
         'first', (SELECT ${aboveSql('first.s')}::text FROM first WHERE first.s IS NOT NULL),
         'total', (SELECT ${aboveSql('0::bigint')}::text)) AS r`,
      [resourceTypeId, page.offset, page.limit],
    );
    return r;
  }

  /**
   * The user's row, up to `around` neighbours on each side (index range scans from the user's own
   * score), and the prefix-counter rank of every score involved.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 2] })
  async around(resourceTypeId: string, userId: string, around: number): Promise<AroundRow> {
    const limit = Math.max(0, Math.min(100, Math.trunc(around)));
    const [{ r }] = await preparedQuery<{ r: AroundRow }>(
      this.dataSource,
      aroundSql(BALANCES, 'SELECT earned, balance, earned_at FROM resource_balances WHERE resource_type_id = $1 AND user_id = $2', limit),
      [resourceTypeId, userId],
    );
    return r;
  }

  /**
   * The current rank values of these users (the Redis store copies them after a commit; a user
   * without a row is absent: unranked). Primary key lookups.
   */
  @GenerateSql({ params: [DUMMY.uuid, [DUMMY.uuid2, DUMMY.uuid3]] })
  entries(resourceTypeId: string, userIds: string[]): Promise<RankSourceRow[]> {
    return preparedQuery<RankSourceRow>(
      this.dataSource,
      `SELECT b.user_id, b.earned::text AS earned, ${AT_MICROS} AS at FROM resource_balances b
       WHERE b.resource_type_id = $1 AND b.user_id = ANY($2::uuid[])`,
      [resourceTypeId, userIds],
    );
  }

  /**
   * A batch of the ranked users (earned > 0) in user id order after `afterUserId` (the Redis store
   * rebuilds a board with these, batch after batch: primary key range scans, none of which holds
   * anything for long). Start from the nil uuid (never a user id: ids are random, version 4).
   */
  @GenerateSql({ params: [DUMMY.uuid, '00000000-0000-0000-0000-000000000000', 5000] })
  rankedAfter(resourceTypeId: string, afterUserId: string, limit: number): Promise<RankSourceRow[]> {
    return this.manager().query(
      `SELECT b.user_id, b.earned::text AS earned, ${AT_MICROS} AS at FROM resource_balances b
       WHERE b.resource_type_id = $1 AND b.user_id > $2 AND b.earned > 0
       ORDER BY b.user_id LIMIT $3`,
      [resourceTypeId, afterUserId, limit],
    );
  }

  /**
   * What the Redis store does not hold: the handles of the users it listed, and the earned and
   * spendable amounts of `me` (null: none asked). One statement.
   */
  @GenerateSql({ params: [DUMMY.uuid, [DUMMY.uuid2, DUMMY.uuid3], DUMMY.uuid2] })
  async people(resourceTypeId: string, userIds: string[], me: string | null): Promise<PeopleRow> {
    const [{ r }] = await preparedQuery<{ r: PeopleRow }>(
      this.dataSource,
      `SELECT json_build_object(
         'users', (SELECT json_agg(json_build_object('id', u.id, 'handle', u.handle, 'display_name', u.display_name))
                   FROM users u WHERE u.id = ANY($2::uuid[])),
         'mine', (SELECT json_build_object('earned', b.earned::text, 'balance', b.balance::text) FROM resource_balances b
                  WHERE b.resource_type_id = $1 AND b.user_id = $3::uuid)) AS r`,
      [resourceTypeId, userIds, me],
    );
    return r;
  }
  // ---------------------------------------------------------------- season boards

  /** A page of a live season's board (`page`'s statement on `season_scores`; `$1` is the season). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async seasonPage(seasonId: string, page: PageRequest, em?: EntityManager): Promise<LeaderboardPageRow> {
    const [{ r }]: { r: LeaderboardPageRow }[] = await this.manager(em).query(
      `WITH ${lvCte(SEASON)},
       pg AS (
         SELECT b.user_id, b.score, b.reached_at FROM season_scores b
         WHERE b.season_id = $1 AND b.score > 0
         ORDER BY b.score DESC, b.reached_at ASC, b.user_id ASC OFFSET $2 LIMIT $3),
       first AS (SELECT max(score) AS s FROM pg)
       SELECT json_build_object(
         'rows', (SELECT json_agg(json_build_object('user_id', pg.user_id, 'handle', u.handle, 'display_name', u.display_name, 'earned', pg.score::text)
                    ORDER BY pg.score DESC, pg.reached_at ASC, pg.user_id ASC) FROM pg JOIN users u ON u.id = pg.user_id),
         'first', (SELECT ${aboveSql('first.s')}::text FROM first WHERE first.s IS NOT NULL),
         'total', (SELECT ${aboveSql('0::bigint')}::text)) AS r`,
      [seasonId, page.offset, page.limit],
    );
    return r;
  }

  /**
   * The user's row of a live season's board and up to `around` neighbours (`around`'s statement on
   * `season_scores`); `balance` is the user's spendable balance of the season's resource type `$3`.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3, 2] })
  async seasonAround(seasonId: string, userId: string, resourceTypeId: string, around: number): Promise<AroundRow> {
    const limit = Math.max(0, Math.min(100, Math.trunc(around)));
    const [{ r }] = await preparedQuery<{ r: AroundRow }>(
      this.dataSource,
      aroundSql(
        SEASON,
        `SELECT COALESCE(s.score, 0) AS earned, COALESCE(rb.balance, 0) AS balance, s.reached_at AS earned_at
         FROM (SELECT 1) one
         LEFT JOIN season_scores s ON s.season_id = $1 AND s.user_id = $2
         LEFT JOIN resource_balances rb ON rb.resource_type_id = $3 AND rb.user_id = $2`,
        limit,
      ),
      [seasonId, userId, resourceTypeId],
    );
    return r;
  }

  /** A page of a closed season's frozen standings (a primary key range: `position` is the final place). */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  standingsPage(seasonId: string, page: PageRequest, em?: EntityManager): Promise<StandingRow[]> {
    return this.manager(em).query(
      `SELECT s.position, s.user_id, u.handle, u.display_name, s.score::text AS score FROM season_standings s
       JOIN users u ON u.id = s.user_id
       WHERE s.season_id = $1 AND s.position > $2::int AND s.position <= $2::int + $3::int ORDER BY s.position`,
      [seasonId, page.offset, page.limit],
    );
  }

  /**
   * The user's final place in a closed season and up to `around` places on each side, and the
   * user's spendable balance of the season's resource type `$3`. One statement.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3, 2] })
  async standingsAround(seasonId: string, userId: string, resourceTypeId: string, around: number): Promise<StandingsAroundRow> {
    const limit = Math.max(0, Math.min(100, Math.trunc(around)));
    const [{ r }] = await preparedQuery<{ r: StandingsAroundRow }>(
      this.dataSource,
      `WITH me AS (SELECT position, score FROM season_standings WHERE season_id = $1 AND user_id = $2)
       SELECT json_build_object(
         'mine', (SELECT json_build_object('position', position, 'score', score::text) FROM me),
         'balance', (SELECT balance::text FROM resource_balances WHERE resource_type_id = $3 AND user_id = $2),
         'rows', (SELECT json_agg(json_build_object('position', s.position, 'user_id', s.user_id, 'handle', u.handle, 'display_name', u.display_name, 'score', s.score::text)
                    ORDER BY s.position)
                  FROM me JOIN season_standings s ON s.season_id = $1 AND s.position BETWEEN me.position - ${limit} AND me.position + ${limit} AND s.position <> me.position
                  JOIN users u ON u.id = s.user_id)) AS r`,
      [seasonId, userId, resourceTypeId],
    );
    return r;
  }
}
