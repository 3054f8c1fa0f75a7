import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { EVERY_SCOPE, type ReadCache } from '../common/cache/read-cache.js';
import { PAGES_WEIGHT_MAX, rowsWeight } from '../common/cache/rows-weight.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { ReplicaReads } from '../database/replica-reads.js';
import type { RankedUser } from '../resources/ranking.service.js';
import '../users/users.events.js';
import type { QuestEvent } from './entities/quest-event.entity.js';
import { EventParticipantsReadModel, type StandingAroundRow, type StandingRow } from './event-participants.read-model.js';
import { QuestEventResolver } from './quest-event-resolver.js';
import { type EventListQuery, QuestEventsRepository } from './quest-events.repository.js';

/** The caller's participant status on one event (null: never registered). */
export type OwnStatus = { readonly status: number | null };

/** What the leaderboard of an event is read from: its live score board, or (completed) its final standings. */
export type EventBoard = { readonly eventId: string; readonly scoreTypeId: string | null; readonly completed: boolean };

/** A player's place in a completed event's final standings (`rank` null: a score of 0, unranked). */
export interface FinalStanding {
  rank: number | null;
  score: number;
  totalRanked: number;
  above: RankedUser[];
  below: RankedUser[];
}

function toRanked(r: StandingRow): RankedUser {
  return { rank: r.rank, userId: r.user_id, handle: r.handle, displayName: r.display_name, amount: Number(r.score) };
}

/** A player's place and neighbours as the read model answers them, with the count of the ranked. */
function finalStanding(r: StandingAroundRow, total: number): FinalStanding {
  const rows = (r.rows ?? []).map((x) => ({ side: x.side, user: toRanked(x) }));
  return {
    rank: r.mine ? r.mine.rank : null,
    score: r.mine ? Number(r.mine.score) : 0,
    totalRanked: total,
    above: rows.filter((x) => x.side < 0).map((x) => x.user),
    below: rows.filter((x) => x.side > 0).map((x) => x.user),
  };
}

/** The quest events module's read caches, declared in one place, with the drops every write of theirs makes. */
@Injectable()
export class QuestEventsCaches {
  /**
   * Pages of filtered event lists, per tenant (READ_CACHE_MS): every event write of the tenant
   * drops them (`eventsChangedIn`); registrations do not (`registeredCount` in a list may be that
   * old; the event's own read is exact). Statuses are computed per request, from the current time.
   */
  readonly lists: ReadCache<{ query: EventListQuery; page: PageRequest }, { rows: QuestEvent[]; total: number }>;
  /**
   * What an event's leaderboard is read from, by reference (READ_CACHE_MS; event writes drop it,
   * the completion among them, so a completed event's board is never taken for a live one).
   */
  readonly boards: ReadCache<{ tenantId: string; ref: string }, EventBoard>;
  /** Pages of completed events' final standings, per event (frozen: only renames drop them). */
  readonly finalPages: ReadCache<{ eventId: string; page: PageRequest }, { items: RankedUser[]; total: number }>;
  /** Players' places in completed events' final standings, per event (frozen, like the pages). */
  readonly finalRankings: ReadCache<{ eventId: string; userId: string; around: number }, FinalStanding>;
  /** How many a completed event's final standings rank, per event (frozen: counted once, not per page). */
  readonly finalCounts: ReadCache<{ eventId: string }, { n: number }>;
  /** The caller's status per event, one scope (and entry) per user, dropped when any of their statuses changes (so BOARD_CACHE_MS while the cache bus listens). */
  readonly ownStatuses: ReadCache<never, Map<string, OwnStatus>>;
  /** The events the caller is REGISTERED in (the `participating` filter), one scope per user, dropped likewise. */
  readonly ownRegistered: ReadCache<{ tenantId: string; userId: string }, { ids: string[] }>;

  constructor(
    repo: QuestEventsRepository,
    participants: EventParticipantsReadModel,
    resolver: QuestEventResolver,
    caches: CacheFactory,
    domainEvents: DomainEvents,
    replicas: ReplicaReads,
  ) {
    this.lists = caches.create({
      name: 'quest event list pages',
      // Pages are kept per filter a client picks: bounded by what their rows weigh, not by count.
      max: PAGES_WEIGHT_MAX,
      weigh: ({ rows }) => rowsWeight(rows),
      // A refill reads a replica only once it has replayed the write that dropped the page.
      load: ({ query, page }) => replicas.read((em) => repo.findListPage(query, page, em), { cache: 'quest event list pages' }),
    });
    this.boards = caches.create({
      name: 'quest event boards',
      load: async (q) => {
        const e = await resolver.resolve(q.tenantId, q.ref);
        return { eventId: e.id, scoreTypeId: e.scoreResourceTypeId, completed: e.state === 'completed' };
      },
    });
    // A completed event's standings never change (completion froze the scores and the participants'
    // statuses); only the names they show do: every rename drops them.
    this.finalPages = caches.create({
      name: 'completed event leaderboard pages',
      max: 2_000,
      droppedOnEveryChange: true,
      load: async ({ eventId, page }) => {
        const [rows, total] = await Promise.all([participants.standingsPage(eventId, page), this.finalCount(eventId)]);
        return { items: rows.map(toRanked), total };
      },
    });
    this.finalRankings = caches.create({
      name: 'completed event rankings',
      max: 20_000,
      droppedOnEveryChange: true,
      load: async ({ eventId, userId, around }) => {
        const [r, total] = await Promise.all([participants.standingAround(eventId, userId, around), this.finalCount(eventId)]);
        return finalStanding(r, total);
      },
    });
    this.finalCounts = caches.create({
      name: 'completed event ranked counts',
      max: 2_000,
      droppedOnEveryChange: true,
      load: async ({ eventId }) => ({ n: await participants.rankedCount(eventId) }),
    });
    domainEvents.afterCommit('user.identity-changed', () => {
      this.finalPages.drop(EVERY_SCOPE);
      this.finalRankings.drop(EVERY_SCOPE);
    });
    this.ownStatuses = caches.create({
      name: 'caller event statuses',
      max: 200_000,
      weigh: (statuses) => statuses.size,
      droppedOnEveryChange: true,
    });
    this.ownRegistered = caches.create({
      name: 'caller registered events',
      max: 50_000,
      droppedOnEveryChange: true,
      load: async ({ tenantId, userId }) => ({ ids: await participants.registeredEventIds(tenantId, userId) }),
    });
  }

  /** The tenant's events change in the transaction of `em` (state, times, features, rewards): what is cached of them goes at the commit. */
  eventsChangedIn(em: EntityManager, tenantId: string): void {
    this.lists.dropAfterCommit(em, tenantId);
    this.boards.dropAfterCommit(em, tenantId);
  }

  /**
   * Forgets a user's cached statuses and registered events, here and, through the cache bus, in
   * every process: participation calls it at the commit of every status change.
   */
  forgetCallerState(userId: string): void {
    this.ownStatuses.drop(userId.toLowerCase());
    this.ownRegistered.drop(userId.toLowerCase());
  }

  private async finalCount(eventId: string): Promise<number> {
    return (await this.finalCounts.get(eventId, '', { eventId })).n;
  }
}
