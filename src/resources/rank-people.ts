import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { DomainEvents } from '../common/events/domain-events.js';
import '../users/users.events.js';
import { LeaderboardReadModel, type PeopleRow } from './leaderboard.read-model.js';

type Name = { handle: string; display_name: string | null };
/** A player's own amounts of a board; `none`: no balance row (never earned nor held any). */
type Own = { earned: string; balance: string } | { none: true };

/** The one scope of the names cache: a change of any user's handle or display name drops it all (rare). */
const NAMES = 'names';
const OWN = 'own';

/**
 * What a Redis rank read needs beyond the sorted set: the handles and display names of the users
 * it lists and the reader's own earned and spendable amounts. Both are cached per process (the
 * read caches: READ_CACHE_MS, drops carried to every process by the cache bus), so a ranking or a
 * page served by Redis reads PostgreSQL only for what is missing, in one statement.
 *
 * - Names are dropped after the commit of every change of a handle or display name
 *   (`user.identity-changed`).
 * - A player's own amounts are dropped after the commit of every ledger operation on them
 *   (`ownChangedIn`, called by the ledger for credits and debits alike), one scope per player and
 *   board: a player sees their own grant or purchase in their next ranking, whichever process
 *   serves it.
 */
@Injectable()
export class RankPeople {
  private readonly names: ReadCache<never, Name>;
  private readonly own: ReadCache<never, Own>;

  constructor(
    private readonly rows: LeaderboardReadModel,
    caches: CacheFactory,
    events: DomainEvents,
  ) {
    this.names = caches.create<never, Name>({ name: 'rank names', max: 200_000 });
    this.own = caches.create<never, Own>({ name: 'rank own amounts', max: 100_000 });
    events.afterCommit('user.identity-changed', () => this.names.drop(NAMES));
  }

  /** The users' names and `me`'s amounts (null: none asked), from the caches and at most one statement. */
  async people(boardId: string, userIds: string[], me: string | null): Promise<PeopleRow> {
    const names = this.names.lookup(NAMES, userIds);
    const own = me === null ? null : this.own.lookup(ownScope(boardId, me), [OWN]);
    const ownMissing = own !== null && own.missing.length > 0;
    let mine: Own | undefined = own?.found.get(OWN);
    if (names.missing.length > 0 || ownMissing) {
      const r = await this.rows.people(boardId, names.missing, ownMissing ? me : null);
      const loaded = new Map<string, Name>();
      for (const u of r.users ?? []) loaded.set(u.id, { handle: u.handle, display_name: u.display_name });
      names.store(loaded);
      for (const [id, name] of loaded) names.found.set(id, name);
      if (ownMissing) {
        mine = r.mine ?? { none: true };
        own.store(new Map([[OWN, mine]]));
      }
    }
    const users = userIds.flatMap((id) => {
      const name = names.found.get(id);
      return name ? [{ id, ...name }] : [];
    });
    return { users, mine: mine && !('none' in mine) ? mine : null };
  }

  /** `userId`'s amounts of the board change in the transaction of `em`: forgotten at its commit. */
  ownChangedIn(em: EntityManager, boardId: string, userId: string): void {
    this.own.dropAfterCommit(em, ownScope(boardId, userId));
  }
}

function ownScope(boardId: string, userId: string): string {
  return `${boardId}:${userId.toLowerCase()}`;
}
