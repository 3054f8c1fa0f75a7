import { Injectable } from '@nestjs/common';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { PAGES_WEIGHT_MAX, rowsWeight } from '../common/cache/rows-weight.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { ReplicaReads } from '../database/replica-reads.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import type { Quest } from './entities/quest.entity.js';
import { type QuestListQuery, QuestListReadModel } from './quest-list.read-model.js';

/**
 * The quests module's read caches, declared in one place:
 * - `lists`: pages of filtered quest lists (rows in order, total), per tenant (READ_CACHE_MS);
 *   every quest or task write and event status change of the tenant drops them;
 * - `completions`: whether a user completed a quest in its current period, one scope per user,
 *   dropped by their next completion (so BOARD_CACHE_MS while the cache bus listens).
 */
@Injectable()
export class QuestListsCache {
  readonly lists: ReadCache<{ query: QuestListQuery; page: PageRequest }, { rows: Quest[]; total: number }>;
  readonly completions: ReadCache<never, Map<string, { readonly done: boolean }>>;

  constructor(shown: QuestListReadModel, caches: CacheFactory, domainEvents: DomainEvents, replicas: ReplicaReads) {
    this.lists = caches.create({
      name: 'quest list pages',
      // Pages are kept per filter a client picks: bounded by what their rows weigh, not by count.
      max: PAGES_WEIGHT_MAX,
      weigh: ({ rows }) => rowsWeight(rows),
      // A refill reads a replica only once it has replayed the write that dropped the page.
      load: ({ query, page }) => replicas.read((em) => shown.findListPage(query, page, em), { cache: 'quest list pages' }),
    });
    this.completions = caches.create({
      name: 'user quest completions',
      max: 200_000,
      weigh: (flags) => flags.size,
      droppedOnEveryChange: true,
    });
    // Completions are only ever added, each publishing quest.completed: the user's cached flags go
    // at its commit, here and, through the cache bus, in every process.
    domainEvents.afterCommit('quest.completed', ({ userId }) => this.completions.drop(userId.toLowerCase()));
    // An event published, cancelled or completed shows or hides its quests in the lists.
    domainEvents.afterCommit('quest_event.status_changed', ({ tenantId }) => this.lists.drop(tenantId));
  }

  /** The tenant's quests changed (a quest or its tasks): its list pages go. */
  drop(tenantId: string): void {
    this.lists.drop(tenantId);
  }
}
