import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../common/pagination/pagination.js';
import { toPage } from '../common/pagination/pagination.js';
import { RankingService } from './ranking.service.js';
import { ResourcesService } from './resources.service.js';
import type { LeaderboardEntryDto, RankingDto } from './dto/ranking.dto.js';

/** The community-facing ranking and leaderboard of a resource type (see RankingService for how). */
@Injectable()
export class CommunityRankingService {
  constructor(
    private readonly resources: ResourcesService,
    private readonly ranking: RankingService,
  ) {}

  async leaderboard(tenantId: string, communityRef: string, slug: string, page: PageRequest): Promise<Page<LeaderboardEntryDto>> {
    const type = await this.resources.typeInCommunityShared(tenantId, communityRef, slug);
    const { items, total } = await this.ranking.leaderboard(type.id, page);
    return toPage(items, total, page);
  }

  async userRanking(tenantId: string, communityRef: string, slug: string, userId: string, neighbours: number): Promise<RankingDto> {
    const type = await this.resources.typeInCommunityShared(tenantId, communityRef, slug);
    const r = await this.ranking.userRanking(type.id, userId, neighbours);
    return { resourceTypeId: type.id, slug: type.slug, userId, ...r };
  }
}
