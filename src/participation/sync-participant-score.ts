import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import type { ParticipantDto } from './dto/participant.dto.js';
import { findParticipant, toParticipantDto } from './participant-lookup.js';
import { ParticipantStatus, statusName } from './participant-status.js';
import { ParticipantsRepository } from './participants.repository.js';
import { ParticipationErrors } from './participation.errors.js';

/** A REGISTERED participant's score brought up to date from the event's scoped resource. */
@Injectable()
export class SyncParticipantScore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly repo: ParticipantsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Brings the REGISTERED participant's score up to date from the event's scoped resource and
   * returns it. One UPDATE reading the balance: idempotent and safe to call concurrently. After
   * completion the score is frozen and returned as it is.
   */
  async sync(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    const p = await findParticipant(this.repo, this.dataSource.manager, event.id, userId, true);
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
    return toParticipantDto(await findParticipant(this.repo, this.dataSource.manager, event.id, userId, true));
  }
}
