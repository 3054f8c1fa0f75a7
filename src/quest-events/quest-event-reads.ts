import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { type Page, type PageRequest, pageRequest, sharedPage, toPage } from '../common/pagination/pagination.js';
import { keptItem, pageOfKeptItems, unkeptItem } from '../common/serialization/item-texts.js';
import { CommunitiesService } from '../communities/communities.service.js';
import type { LeaderboardEntryDto } from '../resources/dto/ranking.dto.js';
import { RankingService } from '../resources/ranking.service.js';
import type { ListQuestEventsQueryDto, QuestEventDto } from './dto/quest-event.dto.js';
import { EventParticipantsReadModel } from './event-participants.read-model.js';
import { EVENT_STATUSES, eventStatus, isRegistrationOpen } from './event-status.js';
import { QuestEventResolver } from './quest-event-resolver.js';
import { type FinalStanding, QuestEventsCaches } from './quest-events.caches.js';
import { eventListQuery } from './quest-events.repository.js';

/** What users read of quest events: one event, the filtered list, the leaderboard, their own status and place. */
@Injectable()
export class QuestEventReads {
  constructor(
    private readonly resolver: QuestEventResolver,
    private readonly caches: QuestEventsCaches,
    private readonly participants: EventParticipantsReadModel,
    private readonly communities: CommunitiesService,
    private readonly rankings: RankingService,
    private readonly clock: Clock,
  ) {}

  async getForUser(tenantId: string, userId: string, ref: string): Promise<QuestEventDto> {
    const e = await this.resolver.resolve(tenantId, ref);
    return this.resolver.toDto(e, await this.participantStatus(e.id, userId));
  }

  async list(tenantId: string, userId: string, q: ListQuestEventsQueryDto): Promise<Page<QuestEventDto>> {
    const page = pageRequest(q);
    const features = (q.filter?.features ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    // The caller's REGISTERED events first (a handful, by index): the list query then filters by
    // an array instead of probing the participants of every event, and users with the same
    // events share its cached answer.
    const participating =
      q.participating !== undefined
        ? { value: q.participating, eventIds: (await this.caches.ownRegistered.get(userId.toLowerCase(), '', { tenantId, userId })).ids }
        : undefined;
    const communityId =
      q.filter?.containerId !== undefined ? (await this.communities.resolveShared(tenantId, q.filter.containerId)).id : undefined;
    const query = eventListQuery(
      tenantId,
      {
        participating,
        registrationOpen: q.registrationOpen,
        communityId,
        features,
        statuses: q.filter?.status ?? [],
        itemId: q.itemId || undefined,
        resourceId: q.resourceId || undefined,
      },
      this.clock.now(),
    );
    // The page may be READ_CACHE_MS old (the time in its filters too); the caller's statuses are
    // as fresh as their last status change (cached per user, dropped by it).
    const key = JSON.stringify([query.from, query.params.map((v) => (v instanceof Date ? 'now' : v)), page.offset, page.limit]);
    const { rows, total } = await this.caches.lists.get(tenantId, key, { query, page });
    const statuses = await this.participantStatuses(
      rows.map((e) => e.id),
      userId,
    );
    // Each item and its JSON kept per cached row and per value of what this request adds to it:
    // the event's status and registrationOpen at this time, and the caller's status
    // (ParticipantStatus, 1-4; none: 0), as one number. A status beyond three bits is never kept.
    const now = this.clock.now();
    const items = rows.map((e) => {
      const own = statuses.get(e.id) ?? null;
      if (own !== null && (own < 0 || own > 7)) return unkeptItem(this.resolver.toDto(e, own, now));
      const status = eventStatus(e, now);
      const open = isRegistrationOpen(e, now);
      return keptItem(e, (EVENT_STATUSES.indexOf(status) * 2 + (open ? 1 : 0)) * 8 + (own ?? 0), () => this.resolver.toDto(e, own, now));
    });
    return pageOfKeptItems(items, total, page);
  }

  /**
   * Live: the ranking of the event's scoped resource; only REGISTERED participants hold it (cancel
   * and drop revoke it), so this is the registered ranking. Completed: the final standings the
   * tickets were allocated by (the participants' frozen scores), not the resource, which can still move.
   */
  async leaderboard(tenantId: string, ref: string, page: PageRequest): Promise<Page<LeaderboardEntryDto>> {
    const board = await this.caches.boards.get(tenantId, ref.trim().toLowerCase(), { tenantId, ref });
    if (board.completed)
      return sharedPage(
        await this.caches.finalPages.get(board.eventId, `${page.offset}:${page.limit}`, { eventId: board.eventId, page }),
        page,
      );
    if (!board.scoreTypeId) return toPage([], 0, page);
    return sharedPage(await this.rankings.leaderboard(board.scoreTypeId, page), page);
  }

  /** The user's place in the final standings of a completed event, with up to `around` places on each side. */
  finalStanding(eventId: string, userId: string, around: number): Promise<FinalStanding> {
    const who = userId.toLowerCase();
    return this.caches.finalRankings.get(eventId, `${who}:${around}`, { eventId, userId: who, around });
  }

  private async participantStatus(eventId: string, userId: string): Promise<number | null> {
    return (await this.participantStatuses([eventId], userId)).get(eventId) ?? null;
  }

  private async participantStatuses(eventIds: string[], userId: string): Promise<Map<string, number>> {
    const own = await this.caches.ownStatuses.getGrouped(userId.toLowerCase(), eventIds, async (missing) => {
      const found = await this.participants.statuses(missing, userId);
      return new Map(missing.map((id) => [id, { status: found.get(id) ?? null }]));
    });
    const statuses = new Map<string, number>();
    for (const [id, { status }] of own) if (status !== null) statuses.set(id, status);
    return statuses;
  }
}
