import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { InventoryRepository } from '../inventory/inventory.repository.js';
import type { Prize } from '../prizes/entities/prize.entity.js';
import type { CreateListingDto, ListingDto, PriceComponentDto, StoreBalanceDto, UpdateListingDto } from './dto/listing.dto.js';
import type { AdminPurchaseDto, PurchaseDto } from './dto/purchase.dto.js';
import type { PriceComponent, StoreListing } from './entities/store-listing.entity.js';
import { StoreCatalogReadModel, type PurchaseTarget } from './store-catalog.read-model.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { StorePurchaseRepository } from './store-purchase.repository.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import { UsersService } from '../users/users.service.js';
import { StoreErrors } from './store.errors.js';
import { toListingDto, toPurchaseDto, windowProblem } from './store.mappers.js';

export const purchaseDataContext = (purchaseId: string) => `store-purchase:${purchaseId}:requirement-data`;

/** Balances, listings (management and the buyer's view) and purchase history. Purchases: `StorePurchaseService`. */
@Injectable()
export class StoreService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly listings: StoreListingRepository,
    private readonly purchases: StorePurchaseRepository,
    private readonly catalog: StoreCatalogReadModel,
    private readonly inventory: InventoryRepository,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly encryption: EncryptionService,
    private readonly users: UsersService,
    private readonly clock: Clock,
    caches: CacheFactory,
  ) {
    this.targets = caches.create({
      name: 'purchase targets',
      load: async ({ tenantId, listingId }) => ({ target: await this.catalog.purchaseTarget(tenantId, listingId) }),
    });
  }

  /**
   * What a purchase reads first, per listing (READ_CACHE_MS; the tenant's listing writes drop it at
   * their commit, in every process through the cache bus). Its units sold are a lower bound (they
   * only grow between supply changes, which drop it). Safe to be stale: the purchase's statement
   * reads the listing again under its lock and refuses another price, kind, item, requirement,
   * window or a sold-out supply; a listing not found here takes the general path, which reads it.
   */
  private readonly targets: ReadCache<{ tenantId: string; listingId: string }, { target: PurchaseTarget | null }>;

  /** The listing a purchase is for, as `StoreCatalogReadModel.purchaseTarget` read it at most READ_CACHE_MS ago. */
  async purchaseTarget(tenantId: string, listingId: string): Promise<PurchaseTarget | null> {
    return (await this.targets.get(tenantId, listingId, { tenantId, listingId })).target;
  }

  /** The tenant's listing, 404 `listing_not_found` otherwise. */
  async findListing(em: EntityManager, tenantId: string, listingId: string): Promise<StoreListing> {
    const listing = UUID_RE.test(listingId) ? await this.listings.findById(tenantId, listingId.toLowerCase(), em) : null;
    if (!listing) throw new DomainError(StoreErrors.listing_not_found, `No listing ${listingId.slice(0, 64)} in this tenant`);
    return listing;
  }

  // ------------------------------------------------------------------ buyers

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
    const [rows, total] = await this.listings.onSale(tenantId, community.id, now, page);
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

  /** The user's purchases in the community, newest first. */
  async listPurchases(tenantId: string, userId: string, containerId: string, page: PageRequest): Promise<Page<PurchaseDto>> {
    const community = await this.communities.resolve(tenantId, containerId);
    const [rows, total] = await this.purchases.userPage(tenantId, userId, community.id, page);
    return toPage(
      rows.map((p) => toPurchaseDto(p, p.listing!.name)),
      total,
      page,
    );
  }

  // ------------------------------------------------------------------ management

  /** Checks a price: distinct resource types of the community; returns it sorted by resource type id (the debit order). */
  private async checkPrice(
    em: EntityManager,
    tenantId: string,
    communityId: string,
    price: PriceComponentDto[],
  ): Promise<PriceComponent[]> {
    const ids = price.map((p) => p.resourceTypeId.toLowerCase());
    if (new Set(ids).size !== ids.length)
      throw new DomainError(StoreErrors.invalid_listing, 'A price names each resource type at most once');
    const ok = await this.catalog.resourceTypesOf(tenantId, communityId, ids, em);
    const missing = ids.find((i) => !ok.has(i));
    if (missing) throw new DomainError(StoreErrors.invalid_listing, `Resource type ${missing} is not one of this community`);
    return price
      .map((p) => ({ resourceTypeId: p.resourceTypeId.toLowerCase(), amount: p.amount }))
      .sort((a, b) => (a.resourceTypeId < b.resourceTypeId ? -1 : 1));
  }

  private checkWindow(startsAt: Date | null, endsAt: Date | null): void {
    if (startsAt && endsAt && endsAt <= startsAt) throw new DomainError(StoreErrors.invalid_listing, 'endsAt must be after startsAt');
  }

  async createListing(tenantId: string, dto: CreateListingDto): Promise<ListingDto> {
    const community = await this.communities.resolve(tenantId, dto.communityId);
    const em = this.dataSource.manager;
    const invalid = (why: string) => new DomainError(StoreErrors.invalid_listing, why);
    const target = { item: dto.itemId, prize: dto.prizeId, resource: dto.resourceTypeId };
    const given = Object.entries(target).filter(([, v]) => v !== undefined);
    if (given.length !== 1 || given[0][0] !== dto.kind)
      throw invalid(
        `A ${dto.kind} listing names exactly one ${dto.kind === 'resource' ? 'resourceTypeId' : `${dto.kind}Id`} and nothing else to grant`,
      );
    if (dto.kind === 'item') {
      if (!(await this.inventory.itemInCommunity(tenantId, community.id, dto.itemId!, em)))
        throw invalid(`Item ${dto.itemId} is not one of this community`);
    } else if (dto.kind === 'prize') {
      if (!(await this.catalog.prizeAvailableIn(tenantId, community.id, dto.prizeId!, em)))
        throw invalid(`Prize ${dto.prizeId} is not one of this tenant or community`);
    } else {
      const kind = await this.catalog.resourceTypeKindIn(tenantId, community.id, dto.resourceTypeId!, em);
      if (!kind) throw invalid(`Resource type ${dto.resourceTypeId} is not one of this community`);
      // A scoped type is one event's score: selling it would sell places in that event.
      if (kind === 'scoped')
        throw invalid(`Resource type ${dto.resourceTypeId} is scoped (a quest event's score); a listing grants a global type`);
    }
    const price = await this.checkPrice(em, tenantId, community.id, dto.price);
    const requirementIds = await this.requirements.assertAllExist(em, tenantId, dto.requirementIds ?? [], StoreErrors.invalid_listing);
    const startsAt = dto.startsAt ? new Date(dto.startsAt) : null;
    const endsAt = dto.endsAt ? new Date(dto.endsAt) : null;
    this.checkWindow(startsAt, endsAt);
    // The listing and its supply shards, together.
    const saved = await this.dataSource.transaction(async (tx) => {
      const created = await this.listings.create(
        {
          tenantId,
          communityId: community.id,
          name: dto.name,
          description: dto.description ?? '',
          imageUrl: dto.imageUrl ?? null,
          kind: dto.kind,
          itemId: dto.itemId?.toLowerCase() ?? null,
          prizeId: dto.prizeId?.toLowerCase() ?? null,
          resourceTypeId: dto.resourceTypeId?.toLowerCase() ?? null,
          quantity: dto.quantity ?? 1,
          price,
          totalSupply: dto.totalSupply ?? null,
          soldFolded: 0,
          perUserLimit: dto.perUserLimit ?? null,
          startsAt,
          endsAt,
          requirementIds,
          active: dto.active ?? true,
          position: dto.position ?? 0,
        },
        tx,
      );
      await this.listings.createShards(created.id, created.totalSupply, tx);
      this.targets.dropAfterCommit(tx, tenantId);
      return Object.assign(created, { soldTotal: 0 });
    });
    return toListingDto(saved);
  }

  async updateListing(tenantId: string, listingId: string, dto: UpdateListingDto): Promise<ListingDto> {
    return this.dataSource.transaction(async (em) => {
      const found = await this.findListing(em, tenantId, listingId);
      // Lock the row: purchases in flight finish first and new ones wait, so the units sold cannot
      // move between the supply check and the shards' new shares.
      await this.listings.lock(tenantId, found.id, em);
      const l = await this.findListing(em, tenantId, found.id);
      if (dto.name !== undefined) l.name = dto.name;
      if (dto.description !== undefined) l.description = dto.description;
      if (dto.imageUrl !== undefined) l.imageUrl = dto.imageUrl;
      if (dto.price !== undefined) l.price = await this.checkPrice(em, tenantId, l.communityId, dto.price);
      if (dto.requirementIds !== undefined)
        l.requirementIds = await this.requirements.assertAllExist(em, tenantId, dto.requirementIds, StoreErrors.invalid_listing);
      const resupply = dto.totalSupply !== undefined && dto.totalSupply !== l.totalSupply;
      if (dto.totalSupply !== undefined) {
        if (dto.totalSupply !== null && dto.totalSupply < l.soldTotal)
          throw new DomainError(StoreErrors.invalid_listing, `${l.soldTotal} already sold; the supply cannot be ${dto.totalSupply}`);
        l.totalSupply = dto.totalSupply;
      }
      if (dto.perUserLimit !== undefined) l.perUserLimit = dto.perUserLimit;
      if (dto.startsAt !== undefined) l.startsAt = dto.startsAt === null ? null : new Date(dto.startsAt);
      if (dto.endsAt !== undefined) l.endsAt = dto.endsAt === null ? null : new Date(dto.endsAt);
      this.checkWindow(l.startsAt, l.endsAt);
      if (dto.active !== undefined) l.active = dto.active;
      if (dto.position !== undefined) l.position = dto.position;
      const saved = await this.listings.save(l, em);
      this.targets.dropAfterCommit(em, tenantId);
      // The shards' caps add up to the new supply (no purchase is in flight: the row is locked).
      if (resupply) await this.listings.resupply(l.id, l.totalSupply, em);
      return toListingDto(saved);
    });
  }

  async adminListings(tenantId: string, containerId: string | undefined, page: PageRequest): Promise<Page<ListingDto>> {
    const communityId = containerId ? (await this.communities.resolve(tenantId, containerId)).id : undefined;
    const [rows, total] = await this.listings.page(tenantId, communityId, page);
    return toPage(rows.map(toListingDto), total, page);
  }

  async adminListing(tenantId: string, listingId: string): Promise<ListingDto> {
    return toListingDto(await this.findListing(this.dataSource.manager, tenantId, listingId));
  }

  /** Purchases of the tenant (filtered by listing and/or user), newest first, with the requirement data given (decrypted) for fulfilment. */
  async adminPurchases(
    tenantId: string,
    filter: { listingId?: string; userId?: string },
    page: PageRequest,
  ): Promise<Page<AdminPurchaseDto>> {
    const [rows, total] = await this.purchases.adminPage(tenantId, filter, page);
    const names = await this.users.names(
      tenantId,
      rows.map((p) => p.userId),
    );
    const items = await Promise.all(
      rows.map(async (p) => ({
        ...toPurchaseDto(p, p.listing!.name),
        userId: p.userId,
        handle: names.get(p.userId)?.handle ?? null,
        displayName: names.get(p.userId)?.displayName ?? null,
        requirementData: p.requirementDataEncrypted
          ? (JSON.parse(await this.encryption.decrypt(p.requirementDataEncrypted, purchaseDataContext(p.id))) as {
              requirementId: string;
              data: Record<string, unknown>;
            }[])
          : [],
      })),
    );
    return toPage(items, total, page);
  }
}
