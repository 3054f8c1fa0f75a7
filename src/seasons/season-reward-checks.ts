import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { InventoryRepository } from '../inventory/inventory.repository.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { ResourcesService } from '../resources/resources.service.js';
import type { SeasonRewardDto, SeasonRulesDto } from './dto/season.dto.js';
import type { SeasonReward } from './entities/season.entity.js';
import { SeasonErrors } from './seasons.errors.js';

/** The checks of a season's (or schedule's) rules: its community, resource type and rewards. */
@Injectable()
export class SeasonRewardChecks {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly resources: ResourcesService,
    private readonly items: InventoryRepository,
    private readonly prizes: PrizesService,
  ) {}

  async checkRules(tenantId: string, dto: SeasonRulesDto) {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const type = await this.resources.getTypeInCommunity(tenantId, community.id, dto.resourceTypeId);
    const rewards = await this.checkRewards(tenantId, community.id, dto.rewards ?? []);
    const reasons = dto.reasons?.length ? [...new Set(dto.reasons)] : null;
    const questIds = dto.questIds?.length ? [...new Set(dto.questIds.map((q) => q.toLowerCase()))] : null;
    return { community, type, rules: { reasons, questIds, rewards } };
  }

  /** Each reward has one range, and names a resource type, item or prize of the community. */
  async checkRewards(tenantId: string, communityId: string, list: SeasonRewardDto[]): Promise<SeasonReward[]> {
    const out: SeasonReward[] = [];
    for (const [i, r] of list.entries()) {
      const ranks = r.fromRank !== undefined || r.toRank !== undefined;
      if (ranks === (r.topPercent !== undefined))
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: give either fromRank and toRank, or topPercent`);
      if (ranks && (r.fromRank === undefined || r.toRank === undefined || r.toRank < r.fromRank))
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: fromRank and toRank, with fromRank <= toRank`);
      const refId = r.refId.toLowerCase();
      const ref = await this.refInCommunity(this.dataSource.manager, tenantId, r.type, refId);
      if (ref?.communityId !== communityId)
        throw new DomainError(SeasonErrors.invalid_season, `rewards[${i}]: no ${r.type} ${refId} in this community`);
      // A scoped type is one event's score: paying it would move that event's standings.
      if (ref.scoped)
        throw new DomainError(
          SeasonErrors.invalid_season,
          `rewards[${i}]: resource type ${refId} is scoped (a quest event's score); a season pays in a global type`,
        );
      out.push({
        ...(ranks ? { fromRank: r.fromRank, toRank: r.toRank } : { topPercent: r.topPercent }),
        type: r.type,
        refId,
        amount: r.amount ?? 1,
      });
    }
    return out;
  }

  /** The community of the rewarded resource type, item or prize, and whether it is a scoped type (null: none in the tenant). */
  private async refInCommunity(
    em: EntityManager,
    tenantId: string,
    type: SeasonReward['type'],
    id: string,
  ): Promise<{ communityId: string | null; scoped: boolean } | null> {
    try {
      if (type === 'resource') {
        const t = await this.resources.getType(tenantId, id);
        return { communityId: t.communityId, scoped: t.kind === 'scoped' };
      }
      if (type === 'item') {
        const item = await this.items.findGrantItem(tenantId, id, em);
        return item ? { communityId: item.community_id, scoped: false } : null;
      }
      return { communityId: (await this.prizes.findPrize(em, tenantId, id)).communityId, scoped: false };
    } catch (e) {
      if (e instanceof DomainError) return null;
      throw e;
    }
  }
}
