/** What the users module publishes (see DomainEvents). */
export interface ReferralRecorded {
  tenantId: string;
  referrerId: string;
  referredId: string;
  /** The referred user's handle when the referral was recorded. */
  referredHandle: string | null;
  /** The community the referral was into; null for a referral at sign-up. */
  communityId: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A user's first referrer in a scope was recorded (at sign-up or on joining a community). */
    'referral.recorded': ReferralRecorded;
  }
}
