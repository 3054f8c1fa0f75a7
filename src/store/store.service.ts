import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../common/crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService, UUID_RE } from '../communities/communities.service.js';
import { Prize } from '../prizes/entities/prize.entity.js';
import type { CreateListingDto, ListingDto, PriceComponentDto, StoreBalanceDto, UpdateListingDto } from './dto/listing.dto.js';
import type { AdminPurchaseDto, PurchaseDto } from './dto/purchase.dto.js';
import { type PriceComponent, StoreListing } from './entities/store-listing.entity.js';
import { StorePurchase } from './entities/store-purchase.entity.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import { StoreErrors } from './store.errors.js';
import { toListingDto, toPurchaseDto, windowProblem } from './store.mappers.js';

export const purchaseDataContext = (purchaseId: string) => `store-purchase:${purchaseId}:requirement-data`;

/** Balances, listings (management and the buyer's view) and purchase history. Purchases: `StorePurchaseService`. */
@Injectable()
export class StoreService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly encryption: EncryptionService,
    private readonly clock: Clock,
  ) {}

  /** The tenant's listing, 404 `listing_not_found` otherwise. */
  async findListing(em: EntityManager, tenantId: string, listingId: string): Promise<StoreListing> {
    const listing = UUID_RE.test(listingId)
      ? await em.getRepository(StoreListing).findOneBy({ tenantId, id: listingId.toLowerCase() })
      : null;
    if (!listing) throw new DomainError(StoreErrors.listing_not_found, `No listing ${listingId.slice(0, 64)} in this tenant`);
    return listing;
  }

  // ------------------------------------------------------------------ buyers

  async balance(tenantId: string, userId: string, containerId: string): Promise<StoreBalanceDto> {
    const community = await this.communities.resolve(tenantId, containerId);
    const rows: { id: string; slug: string; name: string; kind: string; balance: string | null }[] = await this.dataSource.query(
      `SELECT t.id, t.slug, t.name, t.kind, b.balance FROM resource_types t
       LEFT JOIN resource_balances b ON b.resource_type_id = t.id AND b.user_id = $3
       WHERE t.tenant_id = $1 AND t.community_id = $2 ORDER BY (t.kind = 'global') DESC, t.slug`,
      [tenantId, community.id, userId],
    );
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
    const [rows, total] = await this.dataSource
      .getRepository(StoreListing)
      .createQueryBuilder('l')
      .where('l.tenantId = :tenantId AND l.communityId = :communityId AND l.active AND (l.endsAt IS NULL OR l.endsAt > :now)', {
        tenantId,
        communityId: community.id,
        now,
      })
      .orderBy('l.position', 'ASC')
      .addOrderBy('l.createdAt', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
    const items = rows.map(toListingDto);
    if (enrich && rows.length > 0) await this.enrich(tenantId, userId, rows, items, now);
    return toPage(items, total, page);
  }

  private async enrich(tenantId: string, userId: string, rows: StoreListing[], items: ListingDto[], now: Date): Promise<void> {
    const em = this.dataSource.manager;
    const prizeIds = rows.map((l) => l.prizeId).filter((x): x is string => x !== null);
    const prizes = prizeIds.length
      ? await em
          .getRepository(Prize)
          .createQueryBuilder('p')
          .where('p.tenantId = :tenantId AND p.id IN (:...ids)', { tenantId, ids: prizeIds })
          .getMany()
      : [];
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
    const counts: { listing_id: string; count: number }[] = await em.query(
      'SELECT listing_id, count FROM store_purchase_counts WHERE tenant_id = $1 AND user_id = $2 AND listing_id = ANY($3::uuid[])',
      [tenantId, userId, rows.map((l) => l.id)],
    );
    const countOf = new Map(counts.map((c) => [c.listing_id, c.count]));
    const balances: { resource_type_id: string; balance: string }[] = await em.query(
      'SELECT resource_type_id, balance FROM resource_balances WHERE tenant_id = $1 AND user_id = $2',
      [tenantId, userId],
    );
    const balanceOf = new Map(balances.map((b) => [b.resource_type_id, Number(b.balance)]));

    rows.forEach((l, i) => {
      const reqs = reqIdsOf(l)
        .map((id) => defById.get(id))
        .filter((d) => d !== undefined);
      const purchased = countOf.get(l.id) ?? 0;
      const reasons: string[] = [];
      const w = windowProblem(l, now);
      if (w) reasons.push(w);
      if (l.totalSupply !== null && l.sold >= l.totalSupply) reasons.push('sold_out');
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
    const [rows, total] = await this.dataSource
      .getRepository(StorePurchase)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.listing', 'l')
      .where('p.tenantId = :tenantId AND p.userId = :userId AND p.communityId = :communityId', {
        tenantId,
        userId,
        communityId: community.id,
      })
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
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
    const found: { id: string }[] = await em.query(
      'SELECT id FROM resource_types WHERE tenant_id = $1 AND community_id = $2 AND id = ANY($3::uuid[])',
      [tenantId, communityId, ids],
    );
    const ok = new Set(found.map((f) => f.id));
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
      const rows: unknown[] = await em.query('SELECT 1 FROM inventory_items WHERE id = $1 AND tenant_id = $2 AND community_id = $3', [
        dto.itemId,
        tenantId,
        community.id,
      ]);
      if (rows.length === 0) throw invalid(`Item ${dto.itemId} is not one of this community`);
    } else if (dto.kind === 'prize') {
      const rows: unknown[] = await em.query(
        'SELECT 1 FROM prizes WHERE id = $1 AND tenant_id = $2 AND (community_id IS NULL OR community_id = $3)',
        [dto.prizeId, tenantId, community.id],
      );
      if (rows.length === 0) throw invalid(`Prize ${dto.prizeId} is not one of this tenant or community`);
    } else {
      const rows: unknown[] = await em.query('SELECT 1 FROM resource_types WHERE id = $1 AND tenant_id = $2 AND community_id = $3', [
        dto.resourceTypeId,
        tenantId,
        community.id,
      ]);
      if (rows.length === 0) throw invalid(`Resource type ${dto.resourceTypeId} is not one of this community`);
    }
    const price = await this.checkPrice(em, tenantId, community.id, dto.price);
    const requirementIds = await this.requirements.assertAllExist(em, tenantId, dto.requirementIds ?? [], StoreErrors.invalid_listing);
    const startsAt = dto.startsAt ? new Date(dto.startsAt) : null;
    const endsAt = dto.endsAt ? new Date(dto.endsAt) : null;
    this.checkWindow(startsAt, endsAt);
    const repo = em.getRepository(StoreListing);
    const saved = await repo.save(
      repo.create({
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
        sold: 0,
        perUserLimit: dto.perUserLimit ?? null,
        startsAt,
        endsAt,
        requirementIds,
        active: dto.active ?? true,
        position: dto.position ?? 0,
      }),
    );
    return toListingDto(saved);
  }

  async updateListing(tenantId: string, listingId: string, dto: UpdateListingDto): Promise<ListingDto> {
    return this.dataSource.transaction(async (em) => {
      const found = await this.findListing(em, tenantId, listingId);
      // Lock the row: `sold` must not move between the supply check and the save.
      await em.query('SELECT 1 FROM store_listings WHERE id = $1 FOR UPDATE', [found.id]);
      const l = await this.findListing(em, tenantId, found.id);
      if (dto.name !== undefined) l.name = dto.name;
      if (dto.description !== undefined) l.description = dto.description;
      if (dto.imageUrl !== undefined) l.imageUrl = dto.imageUrl;
      if (dto.price !== undefined) l.price = await this.checkPrice(em, tenantId, l.communityId, dto.price);
      if (dto.requirementIds !== undefined)
        l.requirementIds = await this.requirements.assertAllExist(em, tenantId, dto.requirementIds, StoreErrors.invalid_listing);
      if (dto.totalSupply !== undefined) {
        if (dto.totalSupply !== null && dto.totalSupply < l.sold)
          throw new DomainError(StoreErrors.invalid_listing, `${l.sold} already sold; the supply cannot be ${dto.totalSupply}`);
        l.totalSupply = dto.totalSupply;
      }
      if (dto.perUserLimit !== undefined) l.perUserLimit = dto.perUserLimit;
      if (dto.startsAt !== undefined) l.startsAt = dto.startsAt === null ? null : new Date(dto.startsAt);
      if (dto.endsAt !== undefined) l.endsAt = dto.endsAt === null ? null : new Date(dto.endsAt);
      this.checkWindow(l.startsAt, l.endsAt);
      if (dto.active !== undefined) l.active = dto.active;
      if (dto.position !== undefined) l.position = dto.position;
      return toListingDto(await em.save(l));
    });
  }

  async adminListings(tenantId: string, containerId: string | undefined, page: PageRequest): Promise<Page<ListingDto>> {
    const communityId = containerId ? (await this.communities.resolve(tenantId, containerId)).id : undefined;
    const [rows, total] = await this.dataSource.getRepository(StoreListing).findAndCount({
      where: communityId ? { tenantId, communityId } : { tenantId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
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
    const qb = this.dataSource
      .getRepository(StorePurchase)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.listing', 'l')
      .where('p.tenantId = :tenantId', { tenantId });
    if (filter.listingId) qb.andWhere('p.listingId = :listingId', { listingId: filter.listingId });
    if (filter.userId) qb.andWhere('p.userId = :userId', { userId: filter.userId });
    const [rows, total] = await qb
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
    const items = await Promise.all(
      rows.map(async (p) => ({
        ...toPurchaseDto(p, p.listing!.name),
        userId: p.userId,
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
