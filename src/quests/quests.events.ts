/** What the quests module publishes (see DomainEvents). */
export interface QuestCompleted {
  tenantId: string;
  questId: string;
  completionId: string;
  userId: string;
  communityId: string;
  questEventId: string | null;
  /** The period completed: `once`, or the day, ISO week or month of a recurring quest. */
  periodKey: string;
}

/** A task of a quest was verified done for a player in a period (once per task, player and period). */
export interface QuestTaskVerified {
  tenantId: string;
  questId: string;
  taskId: string;
  kind: string;
  userId: string;
  communityId: string;
  periodKey: string;
}

/** An operator approved or rejected a player's submission. */
export interface QuestSubmissionReviewed {
  tenantId: string;
  questId: string;
  taskId: string;
  submissionId: string;
  userId: string;
  communityId: string;
  periodKey: string;
  approved: boolean;
  reason: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A user completed a quest (its rewards granted in the same transaction). */
    'quest.completed': QuestCompleted;
    /** A task of a quest was verified done for a player (before the quest's completion, if that follows). */
    'quest.task_verified': QuestTaskVerified;
    /** An operator approved or rejected a player's submission to a quest task. */
    'quest.submission_reviewed': QuestSubmissionReviewed;
  }
}
