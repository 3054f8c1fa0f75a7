import type { EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import type { DomainEvents } from '../common/events/domain-events.js';
import type { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import { eventStatus } from '../quest-events/event-status.js';
import type { ParticipantDto } from './dto/participant.dto.js';
import type { Participant } from './entities/participant.entity.js';
import type { ParticipantsRepository } from './participants.repository.js';
import {
  nextStatus,
  PARTICIPANT_STATUS_NAMES,
  type ParticipantAction,
  type ParticipantState,
  type ParticipantStatus,
  refusalMessage,
  statusName,
} from './participant-status.js';
import type { ParticipantStatusName } from './participation.events.js';
import { ParticipationErrors } from './participation.errors.js';

/** The pieces every participation use case shares: the row lookup, the transition check and its event. */
export function toParticipantDto(p: Participant): ParticipantDto {
  return {
    eventId: p.eventId,
    userId: p.userId,
    status: p.status,
    statusName: statusName(p.status),
    score: Number(p.score),
    scoreSyncedAt: p.scoreSyncedAt,
    registeredAt: p.registeredAt,
    statusChangedAt: p.statusChangedAt,
    dropReason: p.dropReason,
  };
}

export async function findParticipant(
  repo: ParticipantsRepository,
  em: EntityManager,
  eventId: string,
  userId: string,
  required: true,
): Promise<Participant>;
export async function findParticipant(
  repo: ParticipantsRepository,
  em: EntityManager,
  eventId: string,
  userId: string,
  required: false,
): Promise<Participant | null>;
export async function findParticipant(
  repo: ParticipantsRepository,
  em: EntityManager,
  eventId: string,
  userId: string,
  required: boolean,
): Promise<Participant | null> {
  const p = await repo.findByEventAndUser(eventId, userId, em);
  if (!p && required) throw new DomainError(ParticipationErrors.participant_not_found, 'You have never registered for this event');
  return p;
}

export function assertTransition(current: ParticipantState, action: ParticipantAction): void {
  if (nextStatus(current, action) === null) {
    throw new DomainError(ParticipationErrors.participant_transition, refusalMessage(current, action), {
      currentStatus: statusName(current),
      action,
    });
  }
}

/** The conditional update matched nothing: someone changed the status meanwhile. */
export async function refuseChanged(
  repo: ParticipantsRepository,
  em: EntityManager,
  eventId: string,
  userId: string,
  action: ParticipantAction,
): Promise<never> {
  const now = await findParticipant(repo, em, eventId, userId, false);
  assertTransition(now?.status ?? null, action);
  throw new Error('participant status changed concurrently');
}

export function registrationClosed(event: QuestEvent, now: Date): DomainError {
  return new DomainError(ParticipationErrors.registration_closed, `Registration is not open: the event is ${eventStatus(event, now)}`);
}

export function publishStatusChanged(
  domainEvents: DomainEvents,
  em: EntityManager,
  event: QuestEvent,
  userId: string,
  from: ParticipantState,
  to: ParticipantStatus,
  action: ParticipantAction,
): Promise<void> {
  return domainEvents.publish(em, 'participant.status_changed', {
    tenantId: event.tenantId,
    eventId: event.id,
    communityId: event.communityId,
    userId,
    from: from === null ? null : (PARTICIPANT_STATUS_NAMES[from] as ParticipantStatusName),
    to: PARTICIPANT_STATUS_NAMES[to] as ParticipantStatusName,
    action,
  });
}
