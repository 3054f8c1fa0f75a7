import type { ParticipantStatusName } from './participation.events.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import { eventStatus, isRegistrationOpen } from '../quest-events/event-status.js';
import '../quest-events/quest-events.events.js';
import { QuestEventsRepository } from '../quest-events/quest-events.repository.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import { RankingService } from '../resources/ranking.service.js';
import { UsersService } from '../users/users.service.js';
import type {
  AdminParticipantDto,
  AdminUserParticipationDto,
  ParticipantDto,
  ParticipantListItemDto,
  ParticipantRankDto,
} from './dto/participant.dto.js';
import type { Participant } from './entities/participant.entity.js';
import { ParticipantListReadModel } from './participant-list.read-model.js';
import { ParticipantsRepository } from './participants.repository.js';
import {
  fromStatuses,
  PARTICIPANT_STATUS_NAMES,
  nextStatus,
  type ParticipantAction,
  ParticipantStatus,
  type ParticipantState,
  refusalMessage,
  statusName,
} from './participant-status.js';
import { ParticipationErrors } from './participation.errors.js';

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

/**
 * The participant lifecycle. Every change is checked twice against the one transition table
 * (`participant-status.ts`): first `nextStatus` on the current row (a refused pair is a 400
 * naming the current status), then the conditional `UPDATE ... WHERE status = ANY(from)`, so
 * concurrent requests cannot slip past it. Locks are always taken in the same order: the event
 * row (capacity counter), then the participant row, then (cancel/drop) the score balance.
 * `registered_count` on the event counts REGISTERED participants; the capacity check is the
 * single-row conditional update `registered_count < capacity`.
 */
@Injectable()
export class ParticipationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly communities: CommunitiesService,
    private readonly ledger: LedgerService,
    private readonly rankings: RankingService,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
    private readonly repo: ParticipantsRepository,
    private readonly listing: ParticipantListReadModel,
    private readonly eventRows: QuestEventsRepository,
    private readonly domainEvents: DomainEvents,
    private readonly users: UsersService,
  ) {
    // The final scores of a completing event, batch by batch, before its tickets are allocated.
    domainEvents.inTransaction('quest-event.completing', ({ eventId, scoreResourceTypeId, now, scoresBefore, userIds }, em) =>
      this.repo.syncEventScores(eventId, scoreResourceTypeId, now, scoresBefore, userIds, em),
    );
    // ... and their places in its final standings, batch by batch, as the completion ranks them.
    domainEvents.inTransaction('quest-event.ranked', ({ eventId, userIds, positions, ranks }, em) =>
      this.repo.setFinalPlaces(eventId, userIds, positions, ranks, em),
    );
    // The caller's cached event state (quest events' lists and reads) goes at every status change's commit.
    domainEvents.afterCommit('participant.status_changed', ({ userId }) => this.events.forgetCallerState(userId));
  }

  async get(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    return toParticipantDto(await this.find(this.dataSource.manager, event.id, userId, true));
  }

  /** REGISTERED participants, first registered first. */
  async list(tenantId: string, eventRef: string, page: PageRequest): Promise<Page<ParticipantListItemDto>> {
    const event = await this.events.resolve(tenantId, eventRef);
    const { rows, total } = await this.listing.listRegistered(event.id, page);
    return toPage(
      rows.map((r) => ({ ...r, score: Number(r.score) })),
      total,
      page,
    );
  }

  /** Participants in any status, or in `status` (management; drafts included). */
  async listAdmin(
    tenantId: string,
    eventRef: string,
    status: ParticipantStatus | null,
    page: PageRequest,
  ): Promise<Page<AdminParticipantDto>> {
    const event = await this.events.resolve(tenantId, eventRef, { includeDrafts: true });
    const { rows, total } = await this.listing.listAll(event.id, status, page);
    return toPage(
      rows.map((r) => ({ ...r, score: Number(r.score), status: r.status, statusName: statusName(r.status as ParticipantStatus) })),
      total,
      page,
    );
  }

  /** A player's participations in the tenant's events (management), latest registration first. 404 for an unknown user. */
  async listOfUser(tenantId: string, userId: string, page: PageRequest): Promise<Page<AdminUserParticipationDto>> {
    await this.users.getById(tenantId, userId);
    const now = this.clock.now();
    const { rows, total } = await this.listing.ofUserPage(tenantId, userId, page);
    return toPage(
      rows.map((r) => ({
        eventId: r.event_id,
        eventSlug: r.event_slug,
        eventName: r.event_name,
        communityId: r.community_id,
        eventStatus: eventStatus(
          {
            state: r.state,
            registrationStartsAt: r.registration_starts_at,
            registrationEndsAt: r.registration_ends_at,
            startsAt: r.starts_at,
            endsAt: r.ends_at,
          },
          now,
        ),
        status: r.status,
        statusName: statusName(r.status),
        score: Number(r.score),
        registeredAt: r.registered_at,
        statusChangedAt: r.status_changed_at,
        dropReason: r.drop_reason,
      })),
      total,
      page,
    );
  }

  /**
   * The user's rank on the event leaderboard (same rules and mechanism as community leaderboards);
   * once the event is completed, their place in its final standings, as the leaderboard shows them.
   */
  async rank(tenantId: string, userId: string, eventRef: string): Promise<ParticipantRankDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    const p = await this.find(this.dataSource.manager, event.id, userId, true);
    const base = { eventId: event.id, userId, status: p.status };
    if (event.state === 'completed') {
      const f = await this.events.finalStanding(event.id, userId, 2);
      if (p.status !== ParticipantStatus.REGISTERED)
        return { ...base, rank: null, score: 0, totalRanked: f.totalRanked, above: [], below: [] };
      return { ...base, rank: f.rank, score: Number(p.score), totalRanked: f.totalRanked, above: f.above, below: f.below };
    }
    if (!event.scoreResourceTypeId) return { ...base, rank: null, score: 0, totalRanked: 0, above: [], below: [] };
    const r = await this.rankings.userRanking(event.scoreResourceTypeId, userId, 2);
    if (p.status !== ParticipantStatus.REGISTERED)
      return { ...base, rank: null, score: 0, totalRanked: r.totalRanked, above: [], below: [] };
    return { ...base, rank: r.rank, score: r.amount, totalRanked: r.totalRanked, above: r.above, below: r.below };
  }

  /** (none) or UNREGISTERED → REGISTERED, while registration is open and a seat is free. */
  async register(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    await this.communities.assertMember(tenantId, event.communityId, userId);
    const current = await this.find(this.dataSource.manager, event.id, userId, false);
    this.assertTransition(current?.status ?? null, 'register');
    const now = this.clock.now();
    if (!isRegistrationOpen(event, now)) throw this.registrationClosed(event, now);

    return this.dataSource.transaction(async (em) => {
      if (!(await this.eventRows.takeSeat(event.id, now, em))) {
        const fresh = (await this.eventRows.findById(event.tenantId, event.id, false, em))!;
        if (!isRegistrationOpen(fresh, now)) throw this.registrationClosed(fresh, now);
        throw new DomainError(ParticipationErrors.event_full, `The event is full (${fresh.capacity} participants)`);
      }
      const registered = await this.repo.register(
        tenantId,
        event.id,
        userId,
        ParticipantStatus.REGISTERED,
        now,
        fromStatuses('register'),
        em,
      );
      if (!registered) await this.refuse(em, event.id, userId, 'register');
      await this.statusChanged(em, event, userId, current?.status ?? null, ParticipantStatus.REGISTERED, 'register');
      await this.notifications.notify(em, {
        tenantId,
        userId,
        communityId: event.communityId,
        type: NotificationType.EventRegistered,
        title: `You are registered for ${event.name}`,
        data: { eventId: event.id, eventName: event.name },
      });
      return toParticipantDto(await this.find(em, event.id, userId, true));
    });
  }

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

  /**
   * Brings the REGISTERED participant's score up to date from the event's scoped resource and
   * returns it. One UPDATE reading the balance: idempotent and safe to call concurrently. After
   * completion the score is frozen and returned as it is.
   */
  async sync(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    const p = await this.find(this.dataSource.manager, event.id, userId, true);
    if (p.status !== ParticipantStatus.REGISTERED) {
      throw new DomainError(
        ParticipationErrors.participant_transition,
        `Cannot sync: the participation is ${statusName(p.status)} (sync needs REGISTERED)`,
      );
    }
    if (event.state === 'cancelled') throw new DomainError(ParticipationErrors.event_already_ended, 'The event is cancelled');
    if (event.state === 'published' && event.scoreResourceTypeId) {
      // The row's lock, then the event's state again: the event's completion writes the final
      // score under that lock once its claim has committed, so a sync that gets the row after it
      // sees the event completing and leaves the final score alone.
      await this.dataSource.transaction(async (em) => {
        await this.repo.lockByEventAndUser(event.id, userId, em);
        const current = await this.events.resolve(tenantId, event.id, { includeDrafts: true, em });
        if (current.state === 'published' && current.scoreResourceTypeId)
          await this.repo.syncRegisteredScore(p.id, current.scoreResourceTypeId, this.clock.now(), em);
      });
    }
    return toParticipantDto(await this.find(this.dataSource.manager, event.id, userId, true));
  }

  /** Unregister, cancel and drop: REGISTERED → another status, freeing the seat; cancel and drop revoke the score. */
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
      const current = await this.find(em, event.id, userId, false);
      this.assertTransition(current?.status ?? null, action);
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
      if (!changed) await this.refuse(em, event.id, userId, action);
      await this.statusChanged(em, event, userId, current!.status, to, action);
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
      return toParticipantDto(await this.find(em, event.id, userId, true));
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

  private statusChanged(
    em: EntityManager,
    event: QuestEvent,
    userId: string,
    from: ParticipantState,
    to: ParticipantStatus,
    action: ParticipantAction,
  ): Promise<void> {
    return this.domainEvents.publish(em, 'participant.status_changed', {
      tenantId: event.tenantId,
      eventId: event.id,
      communityId: event.communityId,
      userId,
      from: from === null ? null : (PARTICIPANT_STATUS_NAMES[from] as ParticipantStatusName),
      to: PARTICIPANT_STATUS_NAMES[to] as ParticipantStatusName,
      action,
    });
  }

  private assertTransition(current: ParticipantState, action: ParticipantAction): void {
    if (nextStatus(current, action) === null) {
      throw new DomainError(ParticipationErrors.participant_transition, refusalMessage(current, action), {
        currentStatus: statusName(current),
        action,
      });
    }
  }

  /** The conditional update matched nothing: someone changed the status meanwhile. */
  private async refuse(em: EntityManager, eventId: string, userId: string, action: ParticipantAction): Promise<never> {
    const now = await this.find(em, eventId, userId, false);
    this.assertTransition(now?.status ?? null, action);
    throw new Error('participant status changed concurrently');
  }

  private registrationClosed(event: QuestEvent, now: Date): DomainError {
    return new DomainError(ParticipationErrors.registration_closed, `Registration is not open: the event is ${eventStatus(event, now)}`);
  }

  private async find(em: EntityManager, eventId: string, userId: string, required: true): Promise<Participant>;
  private async find(em: EntityManager, eventId: string, userId: string, required: false): Promise<Participant | null>;
  private async find(em: EntityManager, eventId: string, userId: string, required: boolean): Promise<Participant | null> {
    const p = await this.repo.findByEventAndUser(eventId, userId, em);
    if (!p && required) throw new DomainError(ParticipationErrors.participant_not_found, 'You have never registered for this event');
    return p;
  }
}
