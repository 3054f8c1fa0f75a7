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

export interface IdentityChanged {
  tenantId: string;
  userId: string;
}

export interface UserRegistered {
  tenantId: string;
  userId: string;
  handle: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A user's first referrer in a scope was recorded (at sign-up or on joining a community). */
    'referral.recorded': ReferralRecorded;
    /** A user's handle and/or display name changed (what leaderboards show next to a score). */
    'user.identity-changed': IdentityChanged;
    /** A user was created (in the creating transaction). */
    'user.registered': UserRegistered;
  }
}
