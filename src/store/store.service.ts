import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { ReplicaReads } from '../database/replica-reads.js';
import type { Prize } from '../prizes/entities/prize.entity.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import type { ListingDto, StoreBalanceDto } from './dto/listing.dto.js';
import type { StoreListing } from './entities/store-listing.entity.js';
import { StoreCatalogReadModel } from './store-catalog.read-model.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { toListingDto, windowProblem } from './store.mappers.js';

/**
 * The buyer's view: balances and the listings on sale. Management: `StoreListingsService`; purchase
 * lists: `StorePurchaseHistoryService`; purchases: `purchase/StorePurchaseService`.
 */
@Injectable()
export class StoreService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly listings: StoreListingRepository,
    private readonly catalog: StoreCatalogReadModel,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly clock: Clock,
    private readonly replicas: ReplicaReads,
  ) {}

  async balance(tenantId: string, userId: string, containerId: string): Promise<StoreBalanceDto> {
    const community = await this.communities.resolve(tenantId, containerId);
    const rows = await this.catalog.balances(tenantId, community.id, userId);
    return {
      communityId: community.id,
      resources: rows.map((r) => ({ resourceTypeId: r.id, slug: r.slug, name: r.name, kind: r.kind, balance: Number(r.balance ?? 0) })),
    };
  }

  /**
   * Listings on sale in the community (active, not ended; upcoming ones included), by position.
   * With `enrich`, each carries its requirements (the listing's and, for a prize, the prize's)
   * with the user's saved data, the user's purchase count, and whether they can buy it now.
   */
  async listListings(tenantId: string, userId: string, containerId: string, enrich: boolean, page: PageRequest): Promise<Page<ListingDto>> {
    const community = await this.communities.resolve(tenantId, containerId);
    const now = this.clock.now();
    // The catalogue tolerates lag (a replica's when fresh enough, and past the buyer's own last
    // purchase); the buyer's own counts and balances below are the primary's.
    const [rows, total] = await this.replicas.read((em) => this.listings.onSale(tenantId, community.id, now, page, em), { userId });
    const items = rows.map(toListingDto);
    if (enrich && rows.length > 0) await this.enrich(tenantId, userId, rows, items, now);
    return toPage(items, total, page);
  }

  private async enrich(tenantId: string, userId: string, rows: StoreListing[], items: ListingDto[], now: Date): Promise<void> {
    const em = this.dataSource.manager;
    const prizeIds = rows.map((l) => l.prizeId).filter((x): x is string => x !== null);
    const prizes: Prize[] = prizeIds.length ? await this.catalog.prizes(tenantId, prizeIds, em) : [];
    const prizeById = new Map(prizes.map((p) => [p.id, p]));
    const reqIdsOf = (l: StoreListing) => [
      ...new Set([...l.requirementIds, ...(l.prizeId ? (prizeById.get(l.prizeId)?.requirementIds ?? []) : [])]),
    ];
    const defs = await this.requirements.findMany(em, tenantId, rows.flatMap(reqIdsOf));
    const defById = new Map(defs.map((d) => [d.id, d]));
    const saved = await this.requirements.savedData(
      em,
      tenantId,
      userId,
      defs.filter((d) => d.kind === 'data').map((d) => d.id),
    );
    const unmet = new Set((await this.requirements.unmetConditions(em, tenantId, userId, defs)).map((d) => d.id));
    const countOf = await this.listings.purchaseCounts(
      tenantId,
      userId,
      rows.map((l) => l.id),
      em,
    );
    const balanceOf = await this.catalog.userBalances(tenantId, userId, em);
    const itemIds = rows.map((l) => l.itemId).filter((x): x is string => x !== null);
    const itemLeft = itemIds.length ? await this.catalog.itemsLeft(tenantId, itemIds, em) : new Map<string, number>();
    // What the listing grants can run out before the listing does (an item or a prize sold or granted elsewhere).
    const grantsRunOut = (l: StoreListing) => {
      if (l.itemId !== null) return (itemLeft.get(l.itemId) ?? Infinity) < l.quantity;
      const prize = l.prizeId !== null ? prizeById.get(l.prizeId) : undefined;
      return prize !== undefined && prize.totalSupply !== null && prize.totalSupply - prize.awarded < l.quantity;
    };

    rows.forEach((l, i) => {
      const reqs = reqIdsOf(l)
        .map((id) => defById.get(id))
        .filter((d) => d !== undefined);
      const purchased = countOf.get(l.id) ?? 0;
      const reasons: string[] = [];
      const w = windowProblem(l, now);
      if (w) reasons.push(w);
      if ((l.totalSupply !== null && l.soldTotal >= l.totalSupply) || grantsRunOut(l)) reasons.push('sold_out');
      if (l.perUserLimit !== null && purchased >= l.perUserLimit) reasons.push('limit_reached');
      if (l.price.some((p) => (balanceOf.get(p.resourceTypeId) ?? 0) < Number(p.amount))) reasons.push('insufficient_balance');
      for (const r of reqs) if (unmet.has(r.id)) reasons.push(`requirement_not_met:${r.id}`);
      Object.assign(items[i], {
        requirements: reqs.map((r) => this.requirements.toUserDto(r, saved)),
        purchasedCount: purchased,
        canBuy: reasons.length === 0,
        unavailableReasons: reasons,
      });
    });
  }
}
