import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql, updatedRows } from '../database/repository.js';
import { QuestEventReward } from './entities/quest-event-reward.entity.js';
import { RewardAllocation } from './entities/reward-allocation.entity.js';
import { RewardClaim } from './entities/reward-claim.entity.js';

/** A participant as a completion ranks them: final score (decimal text) and rank (null: unranked). */
export interface RankedParticipant {
  userId: string;
  score: string;
  rank: number | null;
}

/** Event rewards, the allocations of tickets at completion and the claims (`quest_event_rewards`, `..._allocations`, `..._claims`). */
@Injectable()
export class RewardsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, eventId: DUMMY.uuid, name: 'XP', kind: 'resource' }] })
  async insertReward(fields: Partial<QuestEventReward>, em?: EntityManager): Promise<QuestEventReward> {
    const repo = this.manager(em).getRepository(QuestEventReward);
    return repo.save(repo.create(fields));
  }

  /** The rewards of an event, oldest first. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async findRewards(eventId: string, em?: EntityManager): Promise<QuestEventReward[]> {
    return this.manager(em)
      .getRepository(QuestEventReward)
      .find({ where: { eventId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The reward of the event by name (the demo seed's lookup). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'XP'] })
  async findRewardByName(tenantId: string, eventId: string, name: string, em?: EntityManager): Promise<QuestEventReward | null> {
    return this.manager(em).getRepository(QuestEventReward).findOneBy({ tenantId, eventId, name });
  }

  /** The user's allocations in the event with their rewards, oldest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async findAllocations(tenantId: string, eventId: string, userId: string, em?: EntityManager): Promise<RewardAllocation[]> {
    return this.manager(em)
      .getRepository(RewardAllocation)
      .find({
        where: { tenantId, eventId, userId },
        relations: { reward: true },
        order: { createdAt: 'ASC', reward: { createdAt: 'ASC' }, id: 'ASC' },
      });
  }

  /** One page of the event's allocations with their rewards, best rank first, and the total. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  async findEventAllocations(
    tenantId: string,
    eventId: string,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: RewardAllocation[]; total: number }> {
    const [rows, total] = await this.manager(em)
      .getRepository(RewardAllocation)
      .findAndCount({
        where: { tenantId, eventId },
        relations: { reward: true },
        order: { rank: { direction: 'ASC', nulls: 'LAST' }, createdAt: 'ASC', id: 'ASC' },
        skip: page.offset,
        take: page.limit,
      });
    return { rows, total };
  }

  /** One allocation of the user in the event, with its reward. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3] })
  async findAllocation(
    tenantId: string,
    eventId: string,
    userId: string,
    id: string,
    em?: EntityManager,
  ): Promise<RewardAllocation | null> {
    return this.manager(em)
      .getRepository(RewardAllocation)
      .findOne({ where: { id, tenantId, eventId, userId }, relations: { reward: true } });
  }

  /**
   * One batch of a completion's allocations: for each of these participants (their final score
   * and rank; rank null: unranked, a score of 0), one allocation per reward of the event whose
   * rank bracket holds them, if they meet the completion rule (score >= `minScore`, rank <=
   * `maxRank`). Unique per (reward, user): a batch done again allocates nothing twice.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.tenant, DUMMY.date, 1, null, [{ userId: DUMMY.uuid2, score: '10', rank: 1 }]] })
  async allocate(
    eventId: string,
    tenantId: string,
    now: Date,
    minScore: number,
    maxRank: number | null,
    participants: RankedParticipant[],
    em?: EntityManager,
  ): Promise<{ id: string; reward_id: string; user_id: string; tickets: number }[]> {
    if (participants.length === 0) return [];
    return this.manager(em).query(
      `INSERT INTO quest_event_reward_allocations (tenant_id, event_id, reward_id, user_id, tickets, tickets_spent, rank, score, created_at)
         SELECT $2, $1, r.id, x.user_id, r.tickets, 0, x.rank, x.score, $3
         FROM unnest($6::uuid[], $7::bigint[], $8::int[]) AS x(user_id, score, rank) CROSS JOIN quest_event_rewards r
         WHERE r.event_id = $1 AND x.score >= $4 AND ($5::int IS NULL OR x.rank <= $5)
           AND (r.rank_from IS NULL OR x.rank >= r.rank_from) AND (r.rank_to IS NULL OR x.rank <= r.rank_to)
         ON CONFLICT (reward_id, user_id) DO NOTHING
         RETURNING id, reward_id, user_id, tickets`,
      [
        eventId,
        tenantId,
        now,
        minScore,
        maxRank,
        participants.map((p) => p.userId),
        participants.map((p) => p.score),
        participants.map((p) => p.rank),
      ],
    );
  }

  /**
   * The ranks beyond which no reward of the event pays, as far as its rewards' brackets say
   * (null: some reward has no upper bound) and whether it has any reward at all: a completion
   * stops ranking there.
   */
  @GenerateSql({ params: [DUMMY.uuid] })
  async rankReach(eventId: string, em?: EntityManager): Promise<{ rewards: number; lastRank: number | null }> {
    const [r] = await this.manager(em).query<{ rewards: number; last_rank: number | null }[]>(
      `SELECT COUNT(*)::int AS rewards, CASE WHEN bool_and(rank_to IS NOT NULL) THEN max(rank_to) END AS last_rank
         FROM quest_event_rewards WHERE event_id = $1`,
      [eventId],
    );
    return { rewards: r.rewards, lastRank: r.last_rank };
  }

  /** Spends `cost` tickets of the allocation if it has them (conditional update); the new tickets_spent, or null. */
  @GenerateSql({ params: [DUMMY.uuid, 1, {}] })
  async spendTickets(allocationId: string, cost: number, data: object, em?: EntityManager): Promise<number | null> {
    const spent = updatedRows<{ tickets_spent: number }>(
      await this.manager(em).query(
        `UPDATE quest_event_reward_allocations SET tickets_spent = tickets_spent + $2, requirement_data = $3
           WHERE id = $1 AND tickets - tickets_spent >= $2 RETURNING tickets_spent`,
        [allocationId, cost, JSON.stringify(data)],
      ),
    );
    return spent.length ? spent[0].tickets_spent : null;
  }

  /** The tickets the allocation has left. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async ticketsLeft(allocationId: string, em?: EntityManager): Promise<number> {
    const left = await this.manager(em).query<{ left: number }[]>(
      'SELECT tickets - tickets_spent AS left FROM quest_event_reward_allocations WHERE id = $1',
      [allocationId],
    );
    return left[0].left;
  }

  /** Takes one unit of the reward's supply if any is left (conditional update); the new claimed count, or null. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async takeSupply(rewardId: string, em?: EntityManager): Promise<number | null> {
    const supplied = updatedRows<{ claimed: number }>(
      await this.manager(em).query(
        'UPDATE quest_event_rewards SET claimed = claimed + 1 WHERE id = $1 AND (supply IS NULL OR claimed < supply) RETURNING claimed',
        [rewardId],
      ),
    );
    return supplied.length ? supplied[0].claimed : null;
  }

  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, allocationId: DUMMY.uuid, rewardId: DUMMY.uuid2, userId: DUMMY.uuid3 }] })
  async insertClaim(fields: Partial<RewardClaim>, em?: EntityManager): Promise<RewardClaim> {
    const repo = this.manager(em).getRepository(RewardClaim);
    return repo.save(repo.create(fields));
  }
}
