import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { toPage, type Page, type PageRequest } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import { ResourcesService } from '../resources/resources.service.js';
import type { AdminSeasonDto, SeasonDto, SeasonPayoutDto, SeasonScheduleDto } from './dto/season.dto.js';
import { findSchedule, findSeason } from './season-rules.js';
import { SeasonViews } from './season-views.js';
import { SeasonsRepository, type SeasonStatus } from './seasons.repository.js';

/** What players and operators read: seasons, schedules and the payouts of a closed season. */
@Injectable()
export class SeasonReads {
  constructor(
    private readonly repo: SeasonsRepository,
    private readonly communities: CommunitiesService,
    private readonly resources: ResourcesService,
    private readonly views: SeasonViews,
    private readonly clock: Clock,
  ) {}

  async getSchedule(tenantId: string, id: string): Promise<SeasonScheduleDto> {
    return this.views.scheduleView(await findSchedule(this.repo, tenantId, id));
  }

  async listSchedules(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<SeasonScheduleDto>> {
    const community = await this.communities.resolve(tenantId, communityRef);
    const [rows, total] = await this.repo.listSchedules(tenantId, community.id, page);
    return toPage(
      rows.map((s) => this.views.scheduleView(s)),
      total,
      page,
    );
  }

  async adminGet(tenantId: string, id: string): Promise<AdminSeasonDto> {
    const season = await findSeason(this.repo, tenantId, id);
    const type = await this.resources.getType(tenantId, season.resourceTypeId);
    return this.views.adminView(season, type.slug);
  }

  /** The rewards paid (or refused) when the season closed, in final-place order. */
  async payouts(tenantId: string, id: string, page: PageRequest): Promise<Page<SeasonPayoutDto>> {
    const season = await findSeason(this.repo, tenantId, id);
    const [rows, total] = await this.repo.payoutsPage(season.id, page);
    return toPage(
      rows.map((p) => {
        const r = season.rewards[p.reward];
        return {
          userId: p.userId,
          position: p.position,
          reward: p.reward,
          type: r.type,
          refId: r.refId,
          amount: r.amount,
          status: p.status,
          error: p.error,
          createdAt: p.createdAt,
        };
      }),
      total,
      page,
    );
  }

  async list(
    tenantId: string,
    communityRef: string,
    q: { status?: SeasonStatus; resource?: string },
    page: PageRequest,
  ): Promise<Page<SeasonDto>> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const type = q.resource ? await this.resources.getTypeInCommunity(tenantId, community.id, q.resource) : null;
    const [rows, total] = await this.repo.list(tenantId, community.id, type?.id ?? null, q.status ?? null, this.clock.now(), page);
    // A season's type is of its tenant (foreign key, deleted with it).
    const slugs = await this.resources.slugsOf(
      tenantId,
      rows.map((s) => s.resourceTypeId),
    );
    return toPage(
      rows.map((s) => this.views.view(s, slugs.get(s.resourceTypeId)!)),
      total,
      page,
    );
  }

  async get(tenantId: string, communityRef: string, id: string): Promise<SeasonDto> {
    const community = await this.communities.resolveShared(tenantId, communityRef);
    const season = await findSeason(this.repo, tenantId, id, 'in this community');
    if (season.communityId !== community.id)
      throw new DomainError(ResourceErrors.season_not_found, `No season ${id.slice(0, 64)} in this community`);
    const type = await this.resources.getType(tenantId, season.resourceTypeId);
    return this.views.view(season, type.slug);
  }
}
