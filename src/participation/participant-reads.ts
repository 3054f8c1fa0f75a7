import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { eventStatus } from '../quest-events/event-status.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { UsersService } from '../users/users.service.js';
import type { AdminParticipantDto, AdminUserParticipationDto, ParticipantDto, ParticipantListItemDto } from './dto/participant.dto.js';
import { ParticipantListReadModel } from './participant-list.read-model.js';
import { findParticipant, toParticipantDto } from './participant-lookup.js';
import { ParticipantStatus, statusName } from './participant-status.js';
import { ParticipantsRepository } from './participants.repository.js';

/** What players and operators read of participations: one participation and the lists. */
@Injectable()
export class ParticipantReads {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly repo: ParticipantsRepository,
    private readonly listing: ParticipantListReadModel,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  async get(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    return toParticipantDto(await findParticipant(this.repo, this.dataSource.manager, event.id, userId, true));
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
}
