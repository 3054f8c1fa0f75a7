import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { ResourceType } from '../../resources/entities/resource-type.entity.js';

export const SEASON_REWARD_TYPES = ['resource', 'item', 'prize'] as const;
export type SeasonRewardType = (typeof SEASON_REWARD_TYPES)[number];

/**
 * One rank reward of a season: the ranks `fromRank`..`toRank` (final places, 1-based), or the top
 * `topPercent` % of the ranked players (ceil(n × p / 100), at least 1 while anyone is ranked). A
 * player gets every reward whose range holds their final place.
 */
export interface SeasonReward {
  fromRank?: number;
  toRank?: number;
  topPercent?: number;
  type: SeasonRewardType;
  /** The resource type (resource), item (item) or prize (prize) granted. */
  refId: string;
  /** Amount of the resource, or units of the item or prize. */
  amount: number;
}

/**
 * A recurring season: every occurrence of `cron` (in `timeZone`) ends one season and opens the
 * next (the season worker creates each next season before it starts). Seasons copy the filters
 * and rewards of their schedule when they are created; changing the schedule changes later ones.
 */
@Entity('season_schedules')
@Index('ix_season_schedules_community', ['tenantId', 'communityId'])
export class SeasonSchedule {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'uuid' })
  resourceTypeId: string;

  @ManyToOne(() => ResourceType, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_type_id' })
  resourceType?: Relation<ResourceType>;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 120 })
  cron: string;

  @Column({ type: 'varchar', length: 64 })
  timeZone: string;

  @Column({ type: 'varchar', array: true, nullable: true })
  reasons: string[] | null;

  @Column({ type: 'uuid', array: true, nullable: true })
  questIds: string[] | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  rewards: SeasonReward[];

  /** false: no further season is opened (the open ones run to their end). */
  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * A time-boxed leaderboard of one resource type: what players earned in [startsAt, endsAt)
 * (optionally only from some ledger reasons or quests) is ranked on its own board
 * (`season_scores`, resources module). Once ended (and a short grace for transactions in flight),
 * the season worker closes it: the standings are frozen (`frozenAt`, `ranked`), the rank rewards
 * paid batch after batch (`paidThrough`: the last final place paid; `season_payouts` makes each
 * payment happen once), then `closedAt`. `leaseUntil`/`leaseOwner`: the instance closing it.
 */
@Entity('seasons')
@Index('ix_seasons_community', ['tenantId', 'communityId', 'startsAt'])
@Index('ix_seasons_open', ['resourceTypeId', 'endsAt'])
@Index('ix_seasons_closing', ['endsAt'], { where: 'closed_at IS NULL' })
@Index('uq_seasons_schedule_start', ['scheduleId', 'startsAt'], { unique: true, where: 'schedule_id IS NOT NULL' })
export class Season {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'uuid' })
  resourceTypeId: string;

  @ManyToOne(() => ResourceType, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_type_id' })
  resourceType?: Relation<ResourceType>;

  @Column({ type: 'uuid', nullable: true })
  scheduleId: string | null;

  @ManyToOne(() => SeasonSchedule, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'schedule_id' })
  schedule?: Relation<SeasonSchedule>;

  /** 1, 2, 3... within its schedule (1 for a one-off season). */
  @Column({ type: 'int', default: 1 })
  number: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'timestamptz' })
  startsAt: Date;

  @Column({ type: 'timestamptz' })
  endsAt: Date;

  /** Only ledger entries with one of these reasons count (null: any). */
  @Column({ type: 'varchar', array: true, nullable: true })
  reasons: string[] | null;

  /** Only quest completions of these quests count (null: any entry). */
  @Column({ type: 'uuid', array: true, nullable: true })
  questIds: string[] | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  rewards: SeasonReward[];

  @Column({ type: 'timestamptz', nullable: true })
  frozenAt: Date | null;

  /** How many players the frozen standings hold. */
  @Column({ type: 'int', nullable: true })
  ranked: number | null;

  @Column({ type: 'int', default: 0 })
  paidThrough: number;

  @Column({ type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}

/**
 * One rank reward paid to one player: inserted in the transaction that grants it, so a reward is
 * paid once whatever crashes or races (`status` failed: the grant was refused, e.g. no supply left).
 */
@Entity('season_payouts')
export class SeasonPayout {
  @PrimaryColumn({ type: 'uuid' })
  seasonId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  /** Index of the reward in the season's `rewards`. */
  @PrimaryColumn({ type: 'smallint' })
  reward: number;

  @ManyToOne(() => Season, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'season_id' })
  season?: Relation<Season>;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 16 })
  status: 'paid' | 'failed';

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
