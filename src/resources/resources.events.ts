/** What the resources module publishes (see DomainEvents). */
export interface EarnedChanged {
  resourceTypeId: string;
  userId: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /**
     * A ledger operation changed the user's `earned` amount of the resource type (what its
     * leaderboard ranks), in the publishing transaction. After the commit, the Redis rank store
     * copies the user's row from PostgreSQL into its sorted set.
     */
    'resources.earned-changed': EarnedChanged;
  }
}
