import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../common/pagination/pagination.js';
import type {
  AdminParticipantDto,
  AdminUserParticipationDto,
  ParticipantDto,
  ParticipantListItemDto,
  ParticipantRankDto,
} from './dto/participant.dto.js';
import { LeaveEvent } from './leave-event.js';
import { ParticipantRank } from './participant-rank.js';
import { ParticipantReads } from './participant-reads.js';
import type { ParticipantStatus } from './participant-status.js';
import { RegisterParticipant } from './register-participant.js';
import { SyncParticipantScore } from './sync-participant-score.js';

/**
 * The participant lifecycle, as the controllers and the seed call it: each use case is its own
 * class. Every change is checked twice against the one transition table (`participant-status.ts`):
 * first `nextStatus` on the current row (a refused pair is a 400 naming the current status), then
 * the conditional `UPDATE ... WHERE status = ANY(from)`, so concurrent requests cannot slip past
 * it. Locks are always taken in the same order: the event row (capacity counter), then the
 * participant row, then (cancel/drop) the score balance. `registered_count` on the event counts
 * REGISTERED participants; the capacity check is the single-row conditional update
 * `registered_count < capacity`.
 */
@Injectable()
export class ParticipationService {
  constructor(
    private readonly reads: ParticipantReads,
    private readonly ranks: ParticipantRank,
    private readonly registration: RegisterParticipant,
    private readonly leaving: LeaveEvent,
    private readonly scores: SyncParticipantScore,
  ) {}

  get(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.reads.get(tenantId, userId, eventRef);
  }

  list(tenantId: string, eventRef: string, page: PageRequest): Promise<Page<ParticipantListItemDto>> {
    return this.reads.list(tenantId, eventRef, page);
  }

  listAdmin(tenantId: string, eventRef: string, status: ParticipantStatus | null, page: PageRequest): Promise<Page<AdminParticipantDto>> {
    return this.reads.listAdmin(tenantId, eventRef, status, page);
  }

  listOfUser(tenantId: string, userId: string, page: PageRequest): Promise<Page<AdminUserParticipationDto>> {
    return this.reads.listOfUser(tenantId, userId, page);
  }

  rank(tenantId: string, userId: string, eventRef: string): Promise<ParticipantRankDto> {
    return this.ranks.rank(tenantId, userId, eventRef);
  }

  register(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.registration.register(tenantId, userId, eventRef);
  }

  unregister(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.leaving.unregister(tenantId, userId, eventRef);
  }

  cancel(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.leaving.cancel(tenantId, userId, eventRef);
  }

  drop(tenantId: string, eventRef: string, userId: string, reason: string | null): Promise<ParticipantDto> {
    return this.leaving.drop(tenantId, eventRef, userId, reason);
  }

  sync(tenantId: string, userId: string, eventRef: string): Promise<ParticipantDto> {
    return this.scores.sync(tenantId, userId, eventRef);
  }
}
