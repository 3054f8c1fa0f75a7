/** What the seasons module publishes (see DomainEvents). */
export interface SeasonCreated {
  tenantId: string;
  seasonId: string;
  communityId: string;
  resourceTypeId: string;
  /** The schedule that opened it; null for a one-off season. */
  scheduleId: string | null;
  number: number;
  name: string;
  /** ISO 8601. */
  startsAt: string;
  endsAt: string;
}

export interface SeasonRewarded {
  tenantId: string;
  seasonId: string;
  userId: string;
  /** The player's final place. */
  rank: number;
  score: number;
  /** The rewards of that place, in the season's reward order; `failed`: refused (e.g. no supply left). */
  rewards: { type: 'resource' | 'item' | 'prize'; refId: string; amount: number; status: 'paid' | 'failed' }[];
}

export interface SeasonClosed {
  tenantId: string;
  seasonId: string;
  communityId: string;
  resourceTypeId: string;
  /** Players in the frozen standings. */
  ranked: number;
  /** The last place whose rewards were paid. */
  paidThrough: number;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A season was defined (by the management API) or opened by its schedule. */
    'season.created': SeasonCreated;
    /** A winner's rewards were paid at the close (once per player and season). */
    'season.rewarded': SeasonRewarded;
    /** A season's standings were frozen and its rewards paid. */
    'season.closed': SeasonClosed;
  }
}
