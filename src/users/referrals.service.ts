import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { NotificationType } from '../notifications/notification-types.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { Referral } from './entities/referral.entity.js';
import { User } from './entities/user.entity.js';
import { UserErrors } from './users.errors.js';

/** Records and lists referrals (at sign-up and into communities). */
@Injectable()
export class ReferralsService {
  constructor(
    @InjectRepository(Referral) private readonly repo: Repository<Referral>,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Records that `referrerId` referred `referredId` (in `communityId`, or at sign-up when null),
   * inside the caller's transaction. A user keeps their first referrer: returns false when one
   * is already recorded for that scope. Self-referral is a 400. A new referral notifies the
   * referrer (`referral_joined`) in the same transaction.
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
      const handle = referred?.handle ?? 'A new user';
      await this.notifications.notify(em, {
        tenantId: r.tenantId,
        userId: r.referrerId,
        communityId: r.communityId ?? null,
        type: NotificationType.ReferralJoined,
        title: `${handle} joined with your referral`,
        data: { referredUserId: r.referredId, referredHandle: referred?.handle ?? null, communityId: r.communityId ?? null },
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
