import type { ParticipantAction } from './participant-status.js';

/** What the participation module publishes (see DomainEvents). */
export type ParticipantStatusName = 'REGISTERED' | 'UNREGISTERED' | 'DROPPED' | 'CANCELLED';

export interface ParticipantStatusChanged {
  tenantId: string;
  eventId: string;
  communityId: string;
  userId: string;
  /** null: the user had no participation yet. */
  from: ParticipantStatusName | null;
  to: ParticipantStatusName;
  action: ParticipantAction;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A participation changed status (in the changing transaction). */
    'participant.status_changed': ParticipantStatusChanged;
  }
}
