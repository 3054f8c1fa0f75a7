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
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** An amount was credited to a user's balance (never for a replayed idempotency key). */
    'resource.credited': ResourceCredited;
  }
}
