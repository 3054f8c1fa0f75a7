/** What the quests module publishes (see DomainEvents). */
export interface QuestCompleted {
  tenantId: string;
  questId: string;
  completionId: string;
  userId: string;
  communityId: string;
  questEventId: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A user completed a quest (its rewards granted in the same transaction). */
    'quest.completed': QuestCompleted;
  }
}
