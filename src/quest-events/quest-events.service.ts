import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Page, PageRequest } from '../common/pagination/pagination.js';
import type { LeaderboardEntryDto } from '../resources/dto/ranking.dto.js';
import type {
  AdminQuestEventsQueryDto,
  CreateQuestEventDto,
  ListQuestEventsQueryDto,
  QuestEventDto,
  UpdateQuestEventDto,
} from './dto/quest-event.dto.js';
import type { QuestEvent } from './entities/quest-event.entity.js';
import { QuestEventAdmin } from './quest-event-admin.js';
import { QuestEventReads } from './quest-event-reads.js';
import { QuestEventResolver } from './quest-event-resolver.js';
import { type FinalStanding, QuestEventsCaches } from './quest-events.caches.js';

export type { FinalStanding } from './quest-events.caches.js';

/**
 * Quest events as the controllers and the other modules see them: a facade over the module's
 * use cases (resolving, users' reads, management) and its caches. Every method hands its promise
 * on as it is (no await of its own), so the facade costs a call, not a turn of the event loop.
 */
@Injectable()
export class QuestEventsService {
  constructor(
    private readonly resolver: QuestEventResolver,
    private readonly caches: QuestEventsCaches,
    private readonly reads: QuestEventReads,
    private readonly admin: QuestEventAdmin,
  ) {}

  /** See `QuestEventsCaches.forgetCallerState`: participation calls it at the commit of every status change. */
  forgetCallerState(userId: string): void {
    this.caches.forgetCallerState(userId);
  }

  /** The tenant's events change in the transaction of `em` (state, times, features, rewards): what is cached of them goes at the commit. */
  eventsChangedIn(em: EntityManager, tenantId: string): void {
    this.caches.eventsChangedIn(em, tenantId);
  }

  /** See `QuestEventResolver.resolve`: by id or slug, drafts only with `includeDrafts`, 404 otherwise. */
  resolve(tenantId: string, ref: string, opts?: { includeDrafts?: boolean; em?: EntityManager; lock?: boolean }): Promise<QuestEvent> {
    return this.resolver.resolve(tenantId, ref, opts);
  }

  toDto(e: QuestEvent, participantStatus?: number | null, now?: Date): QuestEventDto {
    return this.resolver.toDto(e, participantStatus, now);
  }

  getForUser(tenantId: string, userId: string, ref: string): Promise<QuestEventDto> {
    return this.reads.getForUser(tenantId, userId, ref);
  }

  list(tenantId: string, userId: string, q: ListQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    return this.reads.list(tenantId, userId, q);
  }

  leaderboard(tenantId: string, ref: string, page: PageRequest): Promise<Page<LeaderboardEntryDto>> {
    return this.reads.leaderboard(tenantId, ref, page);
  }

  finalStanding(eventId: string, userId: string, around: number): Promise<FinalStanding> {
    return this.reads.finalStanding(eventId, userId, around);
  }

  listAdmin(tenantId: string, q: AdminQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    return this.admin.listAdmin(tenantId, q);
  }

  getAdmin(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.admin.getAdmin(tenantId, ref);
  }

  create(tenantId: string, dto: CreateQuestEventDto): Promise<QuestEventDto> {
    return this.admin.create(tenantId, dto);
  }

  update(tenantId: string, ref: string, dto: UpdateQuestEventDto): Promise<QuestEventDto> {
    return this.admin.update(tenantId, ref, dto);
  }

  cancel(tenantId: string, ref: string): Promise<QuestEventDto> {
    return this.admin.cancel(tenantId, ref);
  }
}
