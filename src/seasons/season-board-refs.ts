import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SeasonBoardsService, type SeasonBoardRef } from '../resources/season-boards.service.js';
import { SeasonsCaches } from './seasons.caches.js';

/** Answers the resources module's `?season=` of the ranking routes, from the seasons' cache. */
@Injectable()
export class SeasonBoardRefs implements OnModuleInit {
  constructor(
    private readonly boards: SeasonBoardsService,
    private readonly caches: SeasonsCaches,
  ) {}

  onModuleInit(): void {
    this.boards.resolveSeasonsWith((tenantId, resourceTypeId, ref) => this.boardOf(tenantId, resourceTypeId, ref));
  }

  /**
   * `?season=` of the ranking routes: `current` or an id, of this resource type. Every season board
   * read asks it, so it is kept for READ_CACHE_MS like the community and resource type a URL names
   * (a season that just started or ended shows within that; a freeze through this process drops it).
   */
  private boardOf(tenantId: string, resourceTypeId: string, ref: string): Promise<SeasonBoardRef> {
    return this.caches.refs.get(tenantId, `${resourceTypeId}\u0000${ref.toLowerCase()}`, { tenantId, resourceTypeId, ref });
  }
}
