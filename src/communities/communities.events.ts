/** What the communities module publishes (see DomainEvents). */
export interface CommunityChanged {
  tenantId: string;
  communityId: string;
}

export interface CommunityJoined {
  tenantId: string;
  communityId: string;
  userId: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A community was created, or its slug or details changed. */
    'community.changed': CommunityChanged;
    /** A user joined a community (its member count moved). */
    'community.joined': CommunityJoined;
  }
}
