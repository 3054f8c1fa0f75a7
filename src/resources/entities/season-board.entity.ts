import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../bigint.transformer.js';

/**
 * What each player earned of a season's resource inside the season's window (the seasons module
 * defines seasons; the ledger writes these rows in the transaction of each matching entry, so
 * Σ earned_delta of the season's entries = score). `reachedAt`: when the score last changed (ties
 * go to who reached the score first). Ranked like `resource_balances.earned`: only score > 0,
 * with the same prefix counters (`resource_rank_buckets`, whose board id is the season id).
 *
 * The rank index `ix_season_scores_rank` (season_id, score DESC, reached_at, user_id) WHERE
 * score > 0 has mixed sort directions: written by hand in the migration (`synchronize: false`).
 * No foreign keys: a season board is derived data, keyed by the season's id.
 */
@Entity('season_scores')
@Index('ix_season_scores_rank', { synchronize: false })
export class SeasonScore {
  @PrimaryColumn({ type: 'uuid' })
  seasonId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'bigint', transformer: bigintNumber })
  score: number;

  @Column({ type: 'timestamptz' })
  reachedAt: Date;
}

/**
 * A closed season's final standings, frozen in one statement from `season_scores` when it closes:
 * `position` 1..n in order of score DESC, then who reached the score first (`reached_at`), then user
 * id. Kept for good; nothing writes them after.
 */
@Entity('season_standings')
@Index('uq_season_standings_user', ['seasonId', 'userId'], { unique: true })
export class SeasonStanding {
  @PrimaryColumn({ type: 'uuid' })
  seasonId: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'bigint', transformer: bigintNumber })
  score: number;

  @Column({ type: 'timestamptz' })
  reachedAt: Date;
}
