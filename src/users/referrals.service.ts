import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { Referral } from './entities/referral.entity.js';
import { User } from './entities/user.entity.js';
import { UserErrors } from './users.errors.js';
import './users.events.js';

/** Records and lists referrals (at sign-up and into communities). */
@Injectable()
export class ReferralsService {
  constructor(
    @InjectRepository(Referral) private readonly repo: Repository<Referral>,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Records that `referrerId` referred `referredId` (in `communityId`, or at sign-up when null),
   * inside the caller's transaction. A user keeps their first referrer: returns false when one
   * is already recorded for that scope. Self-referral is a 400. A new referral publishes
   * `referral.recorded` in the same transaction (the notifications module tells the referrer).
   */
  async record(
    em: EntityManager,
    r: { tenantId: string; referrerId: string; referredId: string; communityId?: string | null },
  ): Promise<boolean> {
    if (r.referrerId === r.referredId) throw new DomainError(UserErrors.self_referral);
    const res = await em
      .createQueryBuilder()
      .insert()
      .into(Referral)
      .values({ tenantId: r.tenantId, referrerId: r.referrerId, referredId: r.referredId, communityId: r.communityId ?? null })
      .orIgnore()
      .execute();
    const recorded = (res.raw as unknown[]).length > 0;
    if (recorded) {
      const referred = await em.findOneBy(User, { tenantId: r.tenantId, id: r.referredId });
      await this.events.publish(em, 'referral.recorded', {
        tenantId: r.tenantId,
        referrerId: r.referrerId,
        referredId: r.referredId,
        referredHandle: referred?.handle ?? null,
        communityId: r.communityId ?? null,
      });
    }
    return recorded;
  }

  /** Handles of the users `referrerId` referred: all scopes, or one community. Newest first. */
  async referredHandles(
    tenantId: string,
    referrerId: string,
    communityId?: string,
  ): Promise<{ userId: string; handle: string; communityId: string | null; createdAt: Date }[]> {
    const qb = this.repo
      .createQueryBuilder('r')
      .innerJoin(User, 'u', 'u.id = r.referred_id')
      .select(['r.referred_id AS "userId"', 'u.handle AS handle', 'r.community_id AS "communityId"', 'r.created_at AS "createdAt"'])
      .where('r.tenant_id = :tenantId AND r.referrer_id = :referrerId', { tenantId, referrerId })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'ASC');
    if (communityId) qb.andWhere('r.community_id = :communityId', { communityId });
    return qb.getRawMany();
  }
}
