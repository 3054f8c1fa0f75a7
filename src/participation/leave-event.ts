import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { NotificationType } from '../notifications/notification-types.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import type { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import { eventStatus } from '../quest-events/event-status.js';
import { QuestEventsRepository } from '../quest-events/quest-events.repository.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import type { ParticipantDto } from './dto/participant.dto.js';
import { assertTransition, findParticipant, publishStatusChanged, refuseChanged, toParticipantDto } from './participant-lookup.js';
import { fromStatuses, nextStatus, type ParticipantAction } from './participant-status.js';
import { ParticipantsRepository } from './participants.repository.js';
import { ParticipationErrors } from './participation.errors.js';

/**
 * Unregister, cancel and drop: REGISTERED → another status, freeing the seat; cancel and drop
 * revoke the score. Locks the event row, then the participant row, then the score balance.
 */
@Injectable()
export class LeaveEvent {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly eventRows: QuestEventsRepository,
    private readonly repo: ParticipantsRepository,
    private readonly ledger: LedgerService,
    private readonly notifications: NotificationsService,
    private readonly domainEvents: DomainEvents,
    private readonly clock: Clock,
  ) {}

  /** REGISTERED → UNREGISTERED, only before the event starts. */
  unregister(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.leave(tenantId, userId, eventRef, 'unregister', (status, event, now) => {
      if (status === 'upcoming' || status === 'registration_open') return null;
      return now >= event.endsAt || status !== 'active'
        ? new DomainError(ParticipationErrors.event_already_ended, `The event is ${status}: participation cannot change any more`)
        : new DomainError(
            ParticipationErrors.event_already_started,
            'The event has started: unregistering is no longer possible (cancel instead)',
          );
    });
  }

  /** REGISTERED → CANCELLED while the event has not ended; the score leaves the leaderboard. */
  cancel(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.leave(tenantId, userId, eventRef, 'cancel', (status) =>
      ['upcoming', 'registration_open', 'active'].includes(status)
        ? null
        : new DomainError(ParticipationErrors.event_already_ended, `The event is ${status}: participation cannot change any more`),
    );
  }

  /** REGISTERED → DROPPED by the management API, until the event is completed; the score leaves the leaderboard. */
  drop(tenantId: string, eventRef: string, userId: string, reason: string | null): Promise<ParticipantDto> {
    return this.leave(
      tenantId,
      userId,
      eventRef,
      'drop',
      (status) =>
        ['upcoming', 'registration_open', 'active', 'ended'].includes(status)
          ? null
          : new DomainError(ParticipationErrors.event_already_ended, `The event is ${status}: participation cannot change any more`),
      { includeDrafts: true, reason },
    );
  }

  private async leave(
    tenantId: string,
    userId: string,
    eventRef: string,
    action: Exclude<ParticipantAction, 'register'>,
    timeRule: (status: ReturnType<typeof eventStatus>, event: QuestEvent, now: Date) => DomainError | null,
    opts: { includeDrafts?: boolean; reason?: string | null } = {},
  ): Promise<ParticipantDto> {
    const ref = await this.events.resolve(tenantId, eventRef, { includeDrafts: opts.includeDrafts });
    return this.dataSource.transaction(async (em) => {
      const event = await this.events.resolve(tenantId, ref.id, { includeDrafts: true, em, lock: true });
      const current = await findParticipant(this.repo, em, event.id, userId, false);
      assertTransition(current?.status ?? null, action);
      const now = this.clock.now();
      // Its completion is taking the participants as they were when it was claimed.
      if (event.state === 'completing')
        throw new DomainError(
          ParticipationErrors.event_already_ended,
          'The event is being completed: participation cannot change any more',
        );
      const refusal = timeRule(eventStatus(event, now), event, now);
      if (refusal) throw refusal;
      const to = nextStatus(current!.status, action)!;
      const changed = await this.repo.changeStatus(
        event.id,
        userId,
        to,
        now,
        action === 'drop' ? (opts.reason ?? null) : null,
        fromStatuses(action),
        em,
      );
      if (!changed) await refuseChanged(this.repo, em, event.id, userId, action);
      await publishStatusChanged(this.domainEvents, em, event, userId, current!.status, to, action);
      await this.eventRows.freeSeat(event.id, em);
      if (action !== 'unregister') await this.revokeScore(em, event, userId, current!.id, action);
      // Unregister and cancel are the player's own acts; a drop is the operator's, so the player is told.
      if (action === 'drop')
        await this.notifications.notify(em, {
          tenantId,
          userId,
          communityId: event.communityId,
          type: NotificationType.EventDropped,
          title: `You were removed from ${event.name}`,
          data: { eventId: event.id, eventName: event.name, reason: opts.reason ?? null },
        });
      return toParticipantDto(await findParticipant(this.repo, em, event.id, userId, true));
    });
  }

  /**
   * Takes the participant's score off the leaderboard: a revoke (`lowerEarned`) of the scoped
   * resource. The ledger cannot take more than the spendable balance, so a part already spent
   * elsewhere stays earned (event scores are not meant to be spent).
   */
  private async revokeScore(em: EntityManager, event: QuestEvent, userId: string, participantId: string, action: string): Promise<void> {
    await this.repo.resetScore(participantId, this.clock.now(), em);
    if (!event.scoreResourceTypeId) return;
    const { balance } = await this.ledger.getBalance(em, event.tenantId, userId, event.scoreResourceTypeId);
    if (balance <= 0) return;
    await this.ledger.debit(em, {
      tenantId: event.tenantId,
      userId,
      resourceTypeId: event.scoreResourceTypeId,
      amount: balance,
      lowerEarned: true,
      reason: `event_${action}`,
      reference: event.id,
      idempotencyKey: `event-${action}:${participantId}`,
    });
  }
}
