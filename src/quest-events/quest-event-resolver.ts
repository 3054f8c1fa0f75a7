import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { isoDate, isoDateOrNull } from '../common/serialization/iso-date.js';
import { refOf } from '../common/validation/uuid.js';
import type { QuestEventDto } from './dto/quest-event.dto.js';
import type { QuestEvent } from './entities/quest-event.entity.js';
import { eventStatus, isRegistrationOpen } from './event-status.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsRepository } from './quest-events.repository.js';

/** Finds a tenant's event by id or slug and shows it: what every read and write of the module starts from. */
@Injectable()
export class QuestEventResolver {
  constructor(
    private readonly repo: QuestEventsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The event of the tenant addressed by id or slug. Drafts are found only with `includeDrafts`
   * (users never see them). `lock` takes the row lock (inside a transaction). 404 otherwise.
   */
  async resolve(
    tenantId: string,
    ref: string,
    opts: { includeDrafts?: boolean; em?: EntityManager; lock?: boolean } = {},
  ): Promise<QuestEvent> {
    const r = refOf(ref);
    const event = !r
      ? null
      : 'id' in r
        ? await this.repo.findById(tenantId, r.id, opts.lock ?? false, opts.em)
        : await this.repo.findBySlug(tenantId, r.key, opts.lock ?? false, opts.em);
    if (!event || (event.state === 'draft' && !opts.includeDrafts)) {
      throw new DomainError(QuestEventErrors.quest_event_not_found, `No quest event "${ref.slice(0, 64)}" in this tenant`);
    }
    return event;
  }

  toDto(e: QuestEvent, participantStatus: number | null = null, now = this.clock.now()): QuestEventDto {
    return {
      id: e.id,
      communityId: e.communityId,
      slug: e.slug,
      name: e.name,
      description: e.description,
      imageUrl: e.imageUrl,
      features: e.features,
      status: eventStatus(e, now),
      registrationOpen: isRegistrationOpen(e, now),
      registrationStartsAt: isoDate(e.registrationStartsAt),
      registrationEndsAt: isoDate(e.registrationEndsAt),
      startsAt: isoDate(e.startsAt),
      endsAt: isoDate(e.endsAt),
      capacity: e.capacity,
      registeredCount: e.registeredCount,
      scoreResourceTypeId: e.scoreResourceTypeId,
      completionRule: { minScore: e.minScore, maxRank: e.maxRank },
      completedAt: isoDateOrNull(e.completedAt),
      participantStatus,
    };
  }
}
