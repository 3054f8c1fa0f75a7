import type { ResourceKind } from './entities/resource-type.entity.js';

/** What the resources module publishes (see DomainEvents). */
export interface ResourceCredited {
  tenantId: string;
  userId: string;
  resourceTypeId: string;
  /** `global`: the community-wide currency (XP); `scoped`: the points of one quest event. */
  kind: ResourceKind;
  amount: number;
  /** The ledger entry's reason (`quest_completion`, `store_purchase`, an operator's own...). */
  reason: string;
  /** What caused it (a quest, purchase or claim id...). */
  reference: string | null;
  /** The spendable balance after the change. */
  balance: number;
}

/** An amount taken from a user's balance: the same fields as a credit. */
export type ResourceDebited = ResourceCredited;

export interface EarnedChanged {
  resourceTypeId: string;
  userId: string;
  /** `earned` before and after (0: unranked). */
  from: number;
  to: number;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** An amount was credited to a user's balance (never for a replayed idempotency key). */
    'resource.credited': ResourceCredited;
    /** An amount was debited from a user's balance (never for a replayed idempotency key). */
    'resource.debited': ResourceDebited;
    /**
     * A ledger operation changed the user's `earned` amount of the resource type (what its
     * leaderboard ranks), in the publishing transaction. After the commit, the Redis rank store
     * copies the user's row from PostgreSQL into its sorted set.
     */
    'resource.earned-changed': EarnedChanged;
  }
}
