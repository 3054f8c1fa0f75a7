import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { UsersRepository } from './users.repository.js';
import { UserErrors } from './users.errors.js';
import './users.events.js';

/** Records and lists referrals (at sign-up and into communities). */
@Injectable()
export class ReferralsService {
  constructor(
    private readonly repo: UsersRepository,
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
    const recorded = await this.repo.insertReferral(
      { tenantId: r.tenantId, referrerId: r.referrerId, referredId: r.referredId, communityId: r.communityId ?? null },
      em,
    );
    if (recorded) {
      const referred = await this.repo.findById(r.tenantId, r.referredId, em);
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
    return this.repo.referredHandles(tenantId, referrerId, communityId);
  }

  /** How many users `referrerId` referred into the community. */
  countReferred(tenantId: string, referrerId: string, communityId: string): Promise<number> {
    return this.repo.countReferred(tenantId, referrerId, communityId);
  }
}
