import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { isRegistrationOpen } from '../quest-events/event-status.js';
import { QuestEventsRepository } from '../quest-events/quest-events.repository.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import type { ParticipantDto } from './dto/participant.dto.js';
import {
  assertTransition,
  findParticipant,
  publishStatusChanged,
  refuseChanged,
  registrationClosed,
  toParticipantDto,
} from './participant-lookup.js';
import { fromStatuses, ParticipantStatus } from './participant-status.js';
import { ParticipantsRepository } from './participants.repository.js';
import { ParticipationErrors } from './participation.errors.js';

/**
 * (none) or UNREGISTERED → REGISTERED. Locks the event row first (the seat, `registered_count <
 * capacity` in one conditional update), then the participant row, as every participation change.
 */
@Injectable()
export class RegisterParticipant {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly eventRows: QuestEventsRepository,
    private readonly communities: CommunitiesService,
    private readonly repo: ParticipantsRepository,
    private readonly notifications: NotificationsService,
    private readonly domainEvents: DomainEvents,
    private readonly clock: Clock,
  ) {}

  /** (none) or UNREGISTERED → REGISTERED, while registration is open and a seat is free. */
  async register(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    await this.communities.assertMember(tenantId, event.communityId, userId);
    const current = await findParticipant(this.repo, this.dataSource.manager, event.id, userId, false);
    assertTransition(current?.status ?? null, 'register');
    const now = this.clock.now();
    if (!isRegistrationOpen(event, now)) throw registrationClosed(event, now);

    return this.dataSource.transaction(async (em) => {
      if (!(await this.eventRows.takeSeat(event.id, now, em))) {
        const fresh = (await this.eventRows.findById(event.tenantId, event.id, false, em))!;
        if (!isRegistrationOpen(fresh, now)) throw registrationClosed(fresh, now);
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
      if (!registered) await refuseChanged(this.repo, em, event.id, userId, 'register');
      await publishStatusChanged(this.domainEvents, em, event, userId, current?.status ?? null, ParticipantStatus.REGISTERED, 'register');
      await this.notifications.notify(em, {
        tenantId,
        userId,
        communityId: event.communityId,
        type: NotificationType.EventRegistered,
        title: `You are registered for ${event.name}`,
        data: { eventId: event.id, eventName: event.name },
      });
      return toParticipantDto(await findParticipant(this.repo, em, event.id, userId, true));
    });
  }
}
