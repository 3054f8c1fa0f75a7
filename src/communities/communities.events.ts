/** What the communities module publishes (see DomainEvents). */
export interface CommunityChanged {
  tenantId: string;
  communityId: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A community was created, or its slug or details changed. */
    'community.changed': CommunityChanged;
  }
}
