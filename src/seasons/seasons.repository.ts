import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { Season, SeasonPayout, SeasonSchedule, type SeasonReward } from './entities/season.entity.js';

export type SeasonStatus = 'upcoming' | 'live' | 'closing' | 'closed';

export interface NewSeason {
  tenantId: string;
  communityId: string;
  resourceTypeId: string;
  scheduleId: string | null;
  number: number;
  name: string;
  startsAt: Date;
  endsAt: Date;
  reasons: string[] | null;
  questIds: string[] | null;
  rewards: SeasonReward[];
  createdAt: Date;
}

const REWARD_EXAMPLE: SeasonReward[] = [{ fromRank: 1, toRank: 1, type: 'resource', refId: DUMMY.uuid3, amount: 500 }];

/** Seasons, their schedules and payouts (`seasons`, `season_schedules`, `season_payouts`). */
@Injectable()
export class SeasonsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  // ---------------------------------------------------------------- definitions

  /** Inserts a season; null when its schedule has one starting then already (a concurrent worker made it). */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: DUMMY.uuid,
        resourceTypeId: DUMMY.uuid2,
        scheduleId: null,
        number: 1,
        name: 'Week 1',
        startsAt: DUMMY.date,
        endsAt: DUMMY.date,
        reasons: null,
        questIds: null,
        rewards: REWARD_EXAMPLE,
        createdAt: DUMMY.date,
      },
    ],
  })
  async insert(s: NewSeason, em?: EntityManager): Promise<Season | null> {
    const rows: { id: string }[] = await this.manager(em).query(
      `INSERT INTO seasons (tenant_id, community_id, resource_type_id, schedule_id, number, name, starts_at, ends_at, reasons, quest_ids, rewards, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (schedule_id, starts_at) WHERE schedule_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        s.tenantId,
        s.communityId,
        s.resourceTypeId,
        s.scheduleId,
        s.number,
        s.name,
        s.startsAt,
        s.endsAt,
        s.reasons,
        s.questIds,
        JSON.stringify(s.rewards),
        s.createdAt,
      ],
    );
    return rows[0] ? this.findById(s.tenantId, rows[0].id, em) : null;
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findById(tenantId: string, id: string, em?: EntityManager): Promise<Season | null> {
    return this.manager(em).getRepository(Season).findOneBy({ tenantId, id });
  }

  /**
   * The live season of a resource type at `now` that ends first (the `current` one), or null.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.date] })
  current(tenantId: string, resourceTypeId: string, now: Date, em?: EntityManager): Promise<Season | null> {
    return this.manager(em)
      .getRepository(Season)
      .createQueryBuilder('s')
      .where('s.resource_type_id = :resourceTypeId AND s.tenant_id = :tenantId AND s.starts_at <= :now AND s.ends_at > :now', {
        resourceTypeId,
        tenantId,
        now,
      })
      .orderBy('s.ends_at', 'ASC')
      .addOrderBy('s.created_at', 'ASC')
      .limit(1)
      .getOne();
  }

  /**
   * A community's seasons (of one resource type when given) in a status at `now`, the latest first
   * (upcoming: the soonest first), and their count.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, null, 'closed', DUMMY.date, DUMMY.page] })
  list(
    tenantId: string,
    communityId: string,
    resourceTypeId: string | null,
    status: SeasonStatus | null,
    now: Date,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<[Season[], number]> {
    const q = this.manager(em)
      .getRepository(Season)
      .createQueryBuilder('s')
      .where('s.tenant_id = :tenantId AND s.community_id = :communityId', { tenantId, communityId });
    if (resourceTypeId) q.andWhere('s.resource_type_id = :resourceTypeId', { resourceTypeId });
    if (status === 'upcoming') q.andWhere('s.starts_at > :now', { now });
    if (status === 'live') q.andWhere('s.starts_at <= :now AND s.ends_at > :now', { now });
    if (status === 'closing') q.andWhere('s.ends_at <= :now AND s.closed_at IS NULL', { now });
    if (status === 'closed') q.andWhere('s.closed_at IS NOT NULL');
    q.orderBy('s.starts_at', status === 'upcoming' ? 'ASC' : 'DESC').addOrderBy('s.id', 'ASC');
    return q.skip(page.offset).take(page.limit).getManyAndCount();
  }

  // ---------------------------------------------------------------- schedules

  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: DUMMY.uuid,
        resourceTypeId: DUMMY.uuid2,
        name: 'Weekly XP',
        cron: '0 0 * * 1',
        timeZone: 'Europe/Berlin',
        reasons: null,
        questIds: null,
        rewards: REWARD_EXAMPLE,
        active: true,
        createdAt: DUMMY.date,
        updatedAt: DUMMY.date,
      },
    ],
  })
  insertSchedule(s: Omit<SeasonSchedule, 'id'>, em?: EntityManager): Promise<SeasonSchedule> {
    return this.manager(em).getRepository(SeasonSchedule).save(this.manager(em).getRepository(SeasonSchedule).create(s));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findSchedule(tenantId: string, id: string, em?: EntityManager): Promise<SeasonSchedule | null> {
    return this.manager(em).getRepository(SeasonSchedule).findOneBy({ tenantId, id });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  listSchedules(tenantId: string, communityId: string, page: PageRequest, em?: EntityManager): Promise<[SeasonSchedule[], number]> {
    return this.manager(em)
      .getRepository(SeasonSchedule)
      .findAndCount({ where: { tenantId, communityId }, order: { createdAt: 'ASC', id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { active: false }, DUMMY.date] })
  async updateSchedule(
    tenantId: string,
    id: string,
    changes: Partial<Pick<SeasonSchedule, 'name' | 'active' | 'rewards'>>,
    now: Date,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em)
      .getRepository(SeasonSchedule)
      .update({ tenantId, id }, { ...changes, updatedAt: now });
  }

  /** The latest season of a schedule (by start), or null. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async latestOf(scheduleId: string, em?: EntityManager): Promise<{ number: number; starts_at: Date; ends_at: Date } | null> {
    const rows: { number: number; starts_at: Date; ends_at: Date }[] = await this.manager(em).query(
      'SELECT number, starts_at, ends_at FROM seasons WHERE schedule_id = $1 ORDER BY starts_at DESC LIMIT 1',
      [scheduleId],
    );
    return rows[0] ?? null;
  }

  /**
   * The active schedules (every tenant) whose latest season has started by `now` (or that have
   * none): the worker opens their next season. Each with its latest season's number and end.
   */
  @GenerateSql({ params: [DUMMY.date, 100] })
  schedulesDue(
    now: Date,
    limit: number,
    em?: EntityManager,
  ): Promise<{ id: string; tenant_id: string; last_number: number | null; last_ends_at: Date | null }[]> {
    return this.manager(em).query(
      `SELECT sc.id, sc.tenant_id, l.number AS last_number, l.ends_at AS last_ends_at FROM season_schedules sc
       LEFT JOIN LATERAL (SELECT s.number, s.starts_at, s.ends_at FROM seasons s WHERE s.schedule_id = sc.id ORDER BY s.starts_at DESC LIMIT 1) l ON true
       WHERE sc.active AND (l.starts_at IS NULL OR l.starts_at <= $1)
       ORDER BY sc.id LIMIT $2`,
      [now, limit],
    );
  }

  // ---------------------------------------------------------------- closing (the worker, every tenant)

  /**
   * Claims the next season to close: ended by `due`, not closed, not leased by another instance
   * (`FOR UPDATE SKIP LOCKED`); leases it to `owner` until `lease`. Null when none.
   */
  @GenerateSql({ params: [DUMMY.date, DUMMY.date, DUMMY.date, 'host:1'] })
  async claimClosing(due: Date, now: Date, lease: Date, owner: string, em?: EntityManager): Promise<Season | null> {
    const res: unknown = await this.manager(em).query(
      `UPDATE seasons SET lease_until = $3, lease_owner = $4
       WHERE id = (SELECT id FROM seasons WHERE closed_at IS NULL AND ends_at <= $1 AND (lease_until IS NULL OR lease_until <= $2)
                   ORDER BY ends_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, tenant_id`,
      [due, now, lease, owner],
    );
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL with [rows, affectedCount].
    const rows = (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as { id: string; tenant_id: string }[];
    return rows[0] ? this.findById(rows[0].tenant_id, rows[0].id, em) : null;
  }

  /** Extends the lease while `owner` still holds it; false when it was lost (another instance took over). */
  @GenerateSql({ params: [DUMMY.uuid, 'host:1', DUMMY.date] })
  async renewLease(id: string, owner: string, lease: Date, em?: EntityManager): Promise<boolean> {
    const [, n]: [unknown, number] = await this.manager(em).query(
      'UPDATE seasons SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND closed_at IS NULL',
      [id, owner, lease],
    );
    return n > 0;
  }

  /** Records the frozen standings (once: false when they were recorded already). */
  @GenerateSql({ params: [DUMMY.uuid, 1000, DUMMY.date] })
  async markFrozen(id: string, ranked: number, now: Date, em?: EntityManager): Promise<boolean> {
    const [, n]: [unknown, number] = await this.manager(em).query(
      'UPDATE seasons SET frozen_at = $3, ranked = $2 WHERE id = $1 AND frozen_at IS NULL',
      [id, ranked, now],
    );
    return n > 0;
  }

  /** Moves the payment cursor forward (never back). */
  @GenerateSql({ params: [DUMMY.uuid, 100] })
  async markPaidThrough(id: string, position: number, em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE seasons SET paid_through = GREATEST(paid_through, $2) WHERE id = $1', [id, position]);
  }

  @GenerateSql({ params: [DUMMY.uuid, DUMMY.date] })
  /** Whether this call closed it (false: closed already). */
  async markClosed(id: string, now: Date, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'UPDATE seasons SET closed_at = $2, lease_until = NULL, lease_owner = NULL WHERE id = $1 AND closed_at IS NULL RETURNING id',
      [id, now],
    );
    return rows.length > 0;
  }

  /**
   * Claims the payment of these rewards to a player: the ones not yet recorded are inserted (and
   * returned); a reward recorded already (a previous run, or another instance right now: it waits
   * on the key) is not returned, so it is never paid twice.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 1, [0, 2], DUMMY.date] })
  async claimPayouts(
    tenantId: string,
    seasonId: string,
    userId: string,
    position: number,
    rewards: number[],
    now: Date,
    em?: EntityManager,
  ): Promise<number[]> {
    const rows: { reward: number }[] = await this.manager(em).query(
      `INSERT INTO season_payouts (season_id, user_id, reward, tenant_id, position, status, created_at)
       SELECT $1, $2, r, $3, $4, 'paid', $6 FROM unnest($5::smallint[]) AS r
       ON CONFLICT (season_id, user_id, reward) DO NOTHING RETURNING reward`,
      [seasonId, userId, tenantId, position, rewards, now],
    );
    return rows.map((r) => r.reward);
  }

  /**
   * `claimPayouts` for a batch of places: the (player, reward) payments not yet recorded are
   * inserted and returned, in one statement. Rows are inserted in (user, reward) order, so two
   * instances claiming the same batch wait on each other's keys in the same order (no deadlock);
   * the second gets only what the first did not record.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [{ userId: DUMMY.uuid2, position: 1, reward: 0 }], DUMMY.date] })
  async claimPayoutsMany(
    tenantId: string,
    seasonId: string,
    claims: { userId: string; position: number; reward: number }[],
    now: Date,
    em?: EntityManager,
  ): Promise<{ userId: string; reward: number }[]> {
    if (claims.length === 0) return [];
    const rows: { user_id: string; reward: number }[] = await this.manager(em).query(
      `INSERT INTO season_payouts (season_id, user_id, reward, tenant_id, position, status, created_at)
       SELECT $1, c.u, c.r, $2, c.p, 'paid', $6 FROM unnest($3::uuid[], $4::smallint[], $5::int[]) AS c(u, r, p) ORDER BY c.u, c.r
       ON CONFLICT (season_id, user_id, reward) DO NOTHING RETURNING user_id, reward`,
      [seasonId, tenantId, claims.map((c) => c.userId), claims.map((c) => c.reward), claims.map((c) => c.position), now],
    );
    return rows.map((r) => ({ userId: r.user_id, reward: r.reward }));
  }

  /** A reward whose grant was refused (no supply left...): recorded as failed, with why. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.uuid2, 0, 'supply exhausted'] })
  async markPayoutFailed(seasonId: string, userId: string, reward: number, error: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE season_payouts SET status = 'failed', error = $4 WHERE season_id = $1 AND user_id = $2 AND reward = $3`,
      [seasonId, userId, reward, error.slice(0, 500)],
    );
  }

  /** How many rewards of the season were paid and refused. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async payoutCounts(seasonId: string, em?: EntityManager): Promise<{ paid: number; failed: number }> {
    const [r]: { paid: number; failed: number }[] = await this.manager(em).query(
      `SELECT COUNT(*) FILTER (WHERE status = 'paid')::int AS paid, COUNT(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM season_payouts WHERE season_id = $1`,
      [seasonId],
    );
    return r;
  }

  /** A season's payouts in final-place order, and their count. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  payoutsPage(seasonId: string, page: PageRequest, em?: EntityManager): Promise<[SeasonPayout[], number]> {
    return this.manager(em)
      .getRepository(SeasonPayout)
      .findAndCount({
        where: { seasonId },
        order: { position: 'ASC', userId: 'ASC', reward: 'ASC' },
        skip: page.offset,
        take: page.limit,
      });
  }
}
