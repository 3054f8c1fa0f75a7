import type { EventStatus } from './event-status.js';

/** What the quest-events module publishes (see DomainEvents). */
export interface QuestEventCompleting {
  tenantId: string;
  eventId: string;
  scoreResourceTypeId: string | null;
  now: Date;
  /**
   * The final scores count only ledger entries stamped before this instant: the end, or just after
   * the operator's close when it comes first. A credit after the end cannot decide the standings.
   */
  scoresBefore: Date;
  /** The REGISTERED participants whose scores this batch of the completion sets. */
  userIds: string[];
}

/** A batch of a completing event's final standings: places (1, 2, 3, ...) and ranks (ties share one), in order. */
export interface QuestEventRanked {
  tenantId: string;
  eventId: string;
  userIds: string[];
  positions: number[];
  ranks: number[];
}

export interface QuestEventStatusChanged {
  tenantId: string;
  eventId: string;
  communityId: string;
  /** null: the event was created. */
  from: EventStatus | null;
  to: EventStatus;
}

export interface RewardAllocated {
  tenantId: string;
  eventId: string;
  allocationId: string;
  rewardId: string;
  userId: string;
  tickets: number;
}

export interface RewardClaimed {
  tenantId: string;
  eventId: string;
  allocationId: string;
  rewardId: string;
  claimId: string;
  userId: string;
  ticketsSpent: number;
  status: 'processed' | 'pending_fulfilment';
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /**
     * The event is being completed, in one of its completion's transactions, before tickets are
     * allocated: the participation module sets the final scores of these REGISTERED participants.
     */
    'quest-event.completing': QuestEventCompleting;
    /**
     * A batch of the completing event's final standings, in the completion's transaction: the
     * participation module stores these participants' places and ranks.
     */
    'quest-event.ranked': QuestEventRanked;
    /** An event's stored state changed: created, published, cancelled or completed. */
    'quest_event.status_changed': QuestEventStatusChanged;
    /** A participant was allocated tickets of a reward (the event completed). */
    'reward.allocated': RewardAllocated;
    /** A participant spent tickets on a reward. */
    'reward.claimed': RewardClaimed;
  }
}
