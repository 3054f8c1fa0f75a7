import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { idOf } from '../common/validation/uuid.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { InventoryRepository } from '../inventory/inventory.repository.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import type { CreateListingDto, ListingDto, PriceComponentDto, UpdateListingDto } from './dto/listing.dto.js';
import type { PriceComponent, StoreListing } from './entities/store-listing.entity.js';
import { StoreCaches } from './store.caches.js';
import { StoreCatalogReadModel } from './store-catalog.read-model.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { StoreErrors } from './store.errors.js';
import { toListingDto } from './store.mappers.js';

/** Listings under management (create, update, read), and the lookup of one listing a purchase shares. */
@Injectable()
export class StoreListingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly listings: StoreListingRepository,
    private readonly catalog: StoreCatalogReadModel,
    private readonly inventory: InventoryRepository,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly caches: StoreCaches,
  ) {}

  /** The tenant's listing, 404 `listing_not_found` otherwise. */
  async findListing(em: EntityManager, tenantId: string, listingId: string): Promise<StoreListing> {
    const id = idOf(listingId);
    const listing = id ? await this.listings.findById(tenantId, id, em) : null;
    if (!listing) throw new DomainError(StoreErrors.listing_not_found, `No listing ${listingId.slice(0, 64)} in this tenant`);
    return listing;
  }

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
      this.caches.targets.dropAfterCommit(tx, tenantId);
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
      this.caches.targets.dropAfterCommit(em, tenantId);
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
}
