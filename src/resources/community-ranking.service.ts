import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../common/pagination/pagination.js';
import { sharedPage } from '../common/pagination/pagination.js';
import { sharedAnswer } from '../common/serialization/shared-answer.js';
import { RankingService } from './ranking.service.js';
import { ResourcesService } from './resources.service.js';
import { SeasonBoardsService } from './season-boards.service.js';
import type { LeaderboardEntryDto, RankingDto } from './dto/ranking.dto.js';

/**
 * The community-facing ranking and leaderboard of a resource type (see RankingService for how),
 * or, with `season` (`current` or a season id), of one of its seasons (SeasonBoardsService).
 */
@Injectable()
export class CommunityRankingService {
  constructor(
    private readonly resources: ResourcesService,
    private readonly ranking: RankingService,
    private readonly seasons: SeasonBoardsService,
  ) {}

  async leaderboard(
    tenantId: string,
    communityRef: string,
    slug: string,
    page: PageRequest,
    season?: string,
  ): Promise<Page<LeaderboardEntryDto>> {
    const type = await this.resources.typeInCommunityShared(tenantId, communityRef, slug);
    const rows = season
      ? await this.seasons.leaderboard(await this.seasons.resolve(tenantId, type.id, season), page)
      : await this.ranking.leaderboard(type.id, page);
    return sharedPage(rows, page);
  }

  async userRanking(
    tenantId: string,
    communityRef: string,
    slug: string,
    userId: string,
    neighbours: number,
    season?: string,
  ): Promise<RankingDto> {
    const type = await this.resources.typeInCommunityShared(tenantId, communityRef, slug);
    const r = season
      ? await this.seasons.ranking(await this.seasons.resolve(tenantId, type.id, season), type.id, userId, neighbours)
      : await this.ranking.userRanking(type.id, userId, neighbours);
    // The cached ranking makes the same answer for every request that names this user alike.
    return sharedAnswer(
      r,
      'ranking',
      () => ({ resourceTypeId: type.id, slug: type.slug, userId, ...r }),
      (kept) => kept.userId === userId && kept.resourceTypeId === type.id && kept.slug === type.slug,
    );
  }
}
