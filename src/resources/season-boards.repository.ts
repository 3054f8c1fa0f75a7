import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/**
 * The season boards' writes besides the ledger's: freezing a board into its final standings and
 * reading who finished where (`season_scores`, `season_standings`).
 */
@Injectable()
export class SeasonBoardsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Copies the next `limit` ranked scores after final place `after` into the standings, numbered
   * by final place (score DESC, then who reached it first, then user id); how many it took (fewer
   * than `limit`: the board is frozen through its last place). The next place's row is found from
   * the last one written (two range scans of the rank index: the rest of its score, then the lower
   * scores), so every chunk costs the same wherever it starts (the statement is planned with its
   * parameters, so `$2 = 0` is folded and the scan bounded). Places written already (a second run,
   * another instance) are kept as they are.
   */
  @GenerateSql({ params: [DUMMY.uuid, 10000, 10000] })
  async freezeChunk(seasonId: string, after: number, limit: number, em?: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await this.manager(em).query(
      `WITH last AS (SELECT score, reached_at, user_id FROM season_standings WHERE season_id = $1 AND position = $2),
       picked AS (
         SELECT * FROM (
           (SELECT s.user_id, s.tenant_id, s.score, s.reached_at FROM season_scores s, last
            WHERE s.season_id = $1 AND s.score > 0 AND s.score = last.score AND (s.reached_at, s.user_id) > (last.reached_at, last.user_id)
            ORDER BY s.reached_at, s.user_id LIMIT $3)
           UNION ALL
           (SELECT s.user_id, s.tenant_id, s.score, s.reached_at FROM season_scores s
            WHERE s.season_id = $1 AND s.score > 0 AND ($2 = 0 OR s.score < (SELECT score FROM last))
            ORDER BY s.score DESC, s.reached_at, s.user_id LIMIT $3)
         ) n ORDER BY n.score DESC, n.reached_at, n.user_id LIMIT $3),
       written AS (
         INSERT INTO season_standings (season_id, position, user_id, tenant_id, score, reached_at)
         SELECT $1, $2 + row_number() OVER (ORDER BY p.score DESC, p.reached_at, p.user_id), p.user_id, p.tenant_id, p.score, p.reached_at
         FROM picked p
         ON CONFLICT DO NOTHING)
       SELECT count(*)::int AS n FROM picked`,
      [seasonId, after, limit],
    );
    return n;
  }

  /** The last final place written so far (0: none), where a freeze resumes. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async frozenThrough(seasonId: string, em?: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await this.manager(em).query(
      'SELECT COALESCE(max(position), 0)::int AS n FROM season_standings WHERE season_id = $1',
      [seasonId],
    );
    return n;
  }

  /** Inserts scores of a season (an imported finished one). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [{ userId: DUMMY.uuid2, score: 5, reachedAt: DUMMY.date }]] })
  async insertScores(
    tenantId: string,
    seasonId: string,
    scores: { userId: string; score: number; reachedAt: Date }[],
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT $1, u, $2, s, r FROM unnest($3::uuid[], $4::bigint[], $5::timestamptz[]) AS x(u, s, r)`,
      [seasonId, tenantId, scores.map((x) => x.userId), scores.map((x) => x.score), scores.map((x) => x.reachedAt)],
    );
  }

  /** How many players the season's standings hold. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async standingsCount(seasonId: string, em?: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await this.manager(em).query('SELECT COUNT(*)::int AS n FROM season_standings WHERE season_id = $1', [
      seasonId,
    ]);
    return n;
  }

  /** Up to `limit` final places after `afterPosition`, up to `throughPosition` (primary key range). */
  @GenerateSql({ params: [DUMMY.uuid, 0, 10, 100] })
  placesAfter(
    seasonId: string,
    afterPosition: number,
    throughPosition: number,
    limit: number,
    em?: EntityManager,
  ): Promise<{ position: number; user_id: string; score: string }[]> {
    return this.manager(em).query(
      `SELECT position, user_id, score::text AS score FROM season_standings
       WHERE season_id = $1 AND position > $2 AND position <= $3 ORDER BY position LIMIT $4`,
      [seasonId, afterPosition, throughPosition, limit],
    );
  }
}
