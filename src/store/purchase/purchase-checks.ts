import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CommunitiesService } from '../../communities/communities.service.js';
import { RequirementsService, type ResolvedRequirementData } from '../../requirements/requirements.service.js';
import type { PurchaseBodyDto } from '../dto/purchase.dto.js';
import type { PriceComponent, StoreListing } from '../entities/store-listing.entity.js';
import { StoreCatalogReadModel, type PurchaseTarget } from '../store-catalog.read-model.js';
import { StoreListingsService } from '../store-listings.service.js';
import { StoreErrors } from '../store.errors.js';
import { toPrice, windowProblem } from '../store.mappers.js';

type RequirementDefinitions = Awaited<ReturnType<RequirementsService['findMany']>>;

/**
 * Whether the purchase may charge `price`: no `expectedPrice` was sent, or it is that price (the same
 * amount of each resource type, in any order).
 */
export function priceAgreed(expected: readonly PriceComponent[] | undefined, price: readonly PriceComponent[]): boolean {
  if (expected === undefined) return true;
  const key = (p: PriceComponent) => `${p.resourceTypeId.toLowerCase()}:${Number(p.amount)}`;
  const want = expected.map(key).sort();
  const have = price.map(key).sort();
  return want.length === have.length && want.every((k, i) => k === have[i]);
}

/** The rules a purchase is checked against before it writes: the listing, its community, window, price, supply and requirements. */
@Injectable()
export class PurchaseChecks {
  constructor(
    private readonly listings: StoreListingsService,
    private readonly communities: CommunitiesService,
    private readonly clock: Clock,
    private readonly catalog: StoreCatalogReadModel,
    private readonly requirements: RequirementsService,
  ) {}

  /**
   * Whether the one-statement path sells this listing now: an item listing without requirements,
   * active, in its window, not known to be sold out, in the community named by `containerId`.
   * Anything else (including every refusal found here) takes the general path, which answers a
   * replay first and words the error.
   */
  async sellsInOneStatement(tenantId: string, { listing, item }: PurchaseTarget, containerId?: string): Promise<boolean> {
    if (listing.kind !== 'item' || !item || listing.prizeId !== null || listing.requirementIds.length > 0 || !listing.active) return false;
    if (windowProblem(listing, this.clock.now()) !== null) return false;
    if (listing.totalSupply !== null && listing.soldTotal >= listing.totalSupply) return false;
    if (containerId !== undefined && (await this.communities.resolve(tenantId, containerId).catch(() => null))?.id !== listing.communityId)
      return false;
    return true;
  }

  /** The tenant's listing, in the community named by `containerId` when given; 404 `listing_not_found` otherwise. */
  async listingIn(em: EntityManager, tenantId: string, listingId: string, containerId: string | undefined): Promise<StoreListing> {
    const listing = await this.listings.findListing(em, tenantId, listingId);
    if (containerId !== undefined) {
      const community = await this.communities.resolve(tenantId, containerId);
      if (community.id !== listing.communityId)
        throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not in community "${containerId.slice(0, 64)}"`);
    }
    return listing;
  }

  /** That the listing is on sale now at the price the buyer expects, and not sold out; returns that now. */
  onSaleNow(listing: StoreListing, expectedPrice: PurchaseBodyDto['expectedPrice']): Date {
    if (!listing.active) throw new DomainError(StoreErrors.listing_not_found, `Listing ${listing.id} is not on sale`);
    // The price read here is the one charged (and recorded) below.
    if (!priceAgreed(expectedPrice, listing.price)) {
      throw new DomainError(
        StoreErrors.price_changed,
        `"${listing.name}" costs another price than expectedPrice now: nothing was charged`,
        { price: toPrice(listing.price) },
      );
    }
    const now = this.clock.now();
    this.assertWindow(listing, now);
    if (listing.totalSupply !== null && listing.soldTotal >= listing.totalSupply)
      throw new DomainError(StoreErrors.listing_sold_out, `"${listing.name}" is sold out`);
    return now;
  }

  assertWindow(listing: Pick<StoreListing, 'name' | 'startsAt' | 'endsAt'>, now: Date): void {
    const w = windowProblem(listing, now);
    if (w === 'not_started')
      throw new DomainError(StoreErrors.listing_not_available, `"${listing.name}" is on sale from ${listing.startsAt!.toISOString()}`, {
        startsAt: listing.startsAt,
      });
    if (w === 'ended')
      throw new DomainError(StoreErrors.listing_not_available, `"${listing.name}" was on sale until ${listing.endsAt!.toISOString()}`, {
        endsAt: listing.endsAt,
      });
  }

  /** The supply step found the listing withdrawn or outside its window: say which (it changed since it was read). */
  async explainUnavailable(tx: EntityManager, tenantId: string, listingId: string, now: Date): Promise<never> {
    const current = await this.listings.findListing(tx, tenantId, listingId);
    if (!current.active) throw new DomainError(StoreErrors.listing_not_found, `Listing ${listingId} is not on sale`);
    this.assertWindow(current, now);
    throw new DomainError(StoreErrors.listing_sold_out, `"${current.name}" is sold out`);
  }

  /** The requirements of the listing and, for a prize, the prize's. */
  async requirementsOf(em: EntityManager, tenantId: string, listing: StoreListing): Promise<RequirementDefinitions> {
    const prize = listing.prizeId ? await this.catalog.prize(tenantId, listing.prizeId, em) : null;
    const requirementIds = [...new Set([...listing.requirementIds, ...(prize?.requirementIds ?? [])])];
    return this.requirements.findMany(em, tenantId, requirementIds);
  }

  /** The data the buyer gives (or saved before) for each data requirement, checked against its schema. */
  async resolveData(
    em: EntityManager,
    tenantId: string,
    userId: string,
    defs: RequirementDefinitions,
    items: NonNullable<PurchaseBodyDto['requirementData']>,
  ): Promise<ResolvedRequirementData[]> {
    const saved = await this.requirements.savedData(
      em,
      tenantId,
      userId,
      defs.filter((d) => d.kind === 'data').map((d) => d.id),
    );
    return this.requirements.resolveData(defs, items, saved);
  }

  /** Step 2: the conditions (owning an item, a minimum earned amount), read in the purchase's transaction. */
  assertConditions(tx: EntityManager, tenantId: string, userId: string, defs: RequirementDefinitions): Promise<void> {
    return this.requirements.assertConditions(tx, tenantId, userId, defs);
  }
}
