import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { PrizesService } from '../prizes/prizes.service.js';
import { LedgerService } from '../resources/ledger.service.js';
import type { Season, SeasonReward } from './entities/season.entity.js';
import { SeasonsRepository } from './seasons.repository.js';

/** The key of one reward to one player, on the ledger, item and prize grants alike. */
export function idempotencyKey(season: Season, index: number, userId: string): string {
  return `season:${season.id}:${index}:${userId}`;
}

/** One season reward granted to one player: a resource credit, an item or a prize. */
@Injectable()
export class SeasonRewardGrants {
  private readonly log = new Logger(SeasonRewardGrants.name);

  constructor(
    private readonly repo: SeasonsRepository,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly prizes: PrizesService,
  ) {}

  /**
   * Grants reward `index` to the player in a savepoint: a grant refused for a reason of its own
   * (no supply left, the item gone) is recorded as failed, and the rest goes on.
   */
  async grantOrRecord(em: EntityManager, season: Season, index: number, userId: string): Promise<'paid' | 'failed'> {
    try {
      await em.transaction((tx) => this.grant(tx, season, season.rewards[index], index, userId));
      return 'paid';
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      await this.repo.markPayoutFailed(season.id, userId, index, e.message, em);
      this.log.warn(`season ${season.id}: reward ${index} to ${userId} refused: ${e.message}`);
      return 'failed';
    }
  }

  private async grant(em: EntityManager, season: Season, reward: SeasonReward, index: number, userId: string): Promise<void> {
    const common = {
      tenantId: season.tenantId,
      userId,
      reason: 'season_reward',
      reference: season.id,
      idempotencyKey: idempotencyKey(season, index, userId),
    };
    if (reward.type === 'resource') await this.ledger.credit(em, { ...common, resourceTypeId: reward.refId, amount: reward.amount });
    else if (reward.type === 'item') await this.inventory.grantItem(em, { ...common, itemId: reward.refId, quantity: reward.amount });
    else await this.prizes.award(em, { ...common, prizeId: reward.refId, quantity: reward.amount, source: 'season' });
  }
}
