/** What the socials module publishes (see DomainEvents). */
export interface SocialLinked {
  tenantId: string;
  socialId: string;
  userId: string;
  accountType: string;
  subjectId: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A social account was linked (or linked again by its holder). */
    'social.linked': SocialLinked;
  }
}
