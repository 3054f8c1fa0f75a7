import { DomainEvents } from '../common/events/domain-events.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import type { UserRequirementDto } from '../requirements/dto/requirement.dto.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import { UserErrors } from '../users/users.errors.js';
import { UsersService } from '../users/users.service.js';
import type {
  AwardPrizeDto,
  CreatePrizeDto,
  PrizeAwardResultDto,
  PrizeDetailDto,
  PrizeDto,
  PrizeOwnerDto,
  PrizeSupplyDto,
  UpdatePrizeDto,
  UserPrizeDto,
} from './dto/prize.dto.js';
import type { PrizeSource } from './entities/prize-award.entity.js';
import type { Prize } from './entities/prize.entity.js';
import { PrizeViewsReadModel } from './prize-views.read-model.js';
import { PrizesRepository } from './prizes.repository.js';
import { PrizeErrors } from './prizes.errors.js';
import { idOf } from '../common/validation/uuid.js';

/** What `PrizesService.award` needs. */
export interface AwardPrizeInput {
  tenantId: string;
  userId: string;
  prizeId: string;
  /** Units (a positive integer). */
  quantity: number;
  /** `store` (a purchase), `event` (an event reward), `season` (a season's rank reward) or `admin`. */
  source: PrizeSource;
  /** Why, 1-64 characters. */
  reason: string;
  /** What it refers to (purchase, claim id), at most 200 characters. */
  reference?: string | null;
  /** Unique per tenant: a replay returns the first award (`replayed: true`) and awards nothing. */
  idempotencyKey?: string | null;
}

export interface AwardPrizeResult {
  awardId: string;
  prizeId: string;
  userId: string;
  quantity: number;
  source: PrizeSource;
  ownedQuantity: number;
  remainingSupply: number | null;
  createdAt: Date;
  replayed: boolean;
}

export function toPrizeDto(p: Prize): PrizeDto {
  return {
    id: p.id,
    communityId: p.communityId,
    name: p.name,
    description: p.description,
    imageUrl: p.imageUrl,
    kind: p.kind,
    totalSupply: p.totalSupply,
    awarded: p.awarded,
    remainingSupply: p.totalSupply === null ? null : p.totalSupply - p.awarded,
    requirementIds: p.requirementIds,
    createdAt: p.createdAt,
  };
}

const OWNERS_IN_DETAIL = 50;

/**
 * Prizes and achievements: definitions, supply, awards and owners. Awards come from the store
 * (a purchase), event rewards and the management API, all through `award(em, ...)`.
 */
@Injectable()
export class PrizesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly communities: CommunitiesService,
    private readonly requirements: RequirementsService,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
    private readonly repo: PrizesRepository,
    private readonly views: PrizeViewsReadModel,
    private readonly users: UsersService,
    private readonly domainEvents: DomainEvents,
  ) {}

  // ------------------------------------------------------------------ awarding (used by other modules)

  /**
   * Awards `quantity` units of a prize INSIDE THE CALLER'S TRANSACTION: never beyond the supply
   * (one conditional `UPDATE ... WHERE awarded + q <= total_supply`; concurrent awards serialise on
   * the prize row), one `prize_awards` row, and a `prize_awarded` notification. Throws 404
   * `prize_not_found` / `user_not_found`, 409 `prize_supply_exhausted`, 409
   * `prize_award_key_reused`; after a throw the caller must let its transaction roll back.
   */
  async award(em: EntityManager, input: AwardPrizeInput): Promise<AwardPrizeResult> {
    const { tenantId, userId, prizeId, quantity } = input;
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw new Error('award: quantity must be a positive integer');
    const prize = await this.findPrize(em, tenantId, prizeId);
    if (!idOf(userId) || !(await this.users.exists(tenantId, userId, em)))
      throw new DomainError(UserErrors.user_not_found, `No user ${userId.slice(0, 64)} in this tenant`);
    const now = this.clock.now();

    const inserted = await this.repo.insertAward(
      {
        tenantId,
        prizeId: prize.id,
        userId,
        quantity,
        source: input.source,
        reason: input.reason,
        reference: input.reference ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        createdAt: now,
      },
      em,
    );
    if (!inserted) {
      const first = (await this.repo.awardByKey(tenantId, input.idempotencyKey!, em))!;
      if (first.prize_id !== prize.id || first.user_id !== userId || first.quantity !== quantity) {
        throw new DomainError(PrizeErrors.prize_award_key_reused, `Idempotency key "${input.idempotencyKey}" was used for another award`);
      }
      const current = await this.findPrize(em, tenantId, prize.id);
      return {
        awardId: first.id,
        prizeId: prize.id,
        userId,
        quantity,
        source: first.source,
        ownedQuantity: await this.repo.ownedQuantity(tenantId, userId, prize.id, em),
        remainingSupply: current.totalSupply === null ? null : current.totalSupply - current.awarded,
        createdAt: first.created_at,
        replayed: true,
      };
    }
    const after = await this.repo.takeSupply(tenantId, prize.id, quantity, em);
    if (!after) throw new DomainError(PrizeErrors.prize_supply_exhausted, `Not enough of "${prize.name}" left for ${quantity} more`);
    await this.domainEvents.publish(em, 'prize.awarded', {
      tenantId,
      awardId: inserted.id,
      prizeId: prize.id,
      userId,
      quantity,
      source: input.source,
      reason: input.reason,
      reference: input.reference ?? null,
    });
    await this.notifications.notify(em, {
      tenantId,
      userId,
      communityId: prize.communityId,
      type: NotificationType.PrizeAwarded,
      title: `You won ${prize.name}`,
      data: { prizeId: prize.id, quantity },
    });
    return {
      awardId: inserted.id,
      prizeId: prize.id,
      userId,
      quantity,
      source: input.source,
      ownedQuantity: await this.repo.ownedQuantity(tenantId, userId, prize.id, em),
      remainingSupply: after.total_supply === null ? null : after.total_supply - after.awarded,
      createdAt: inserted.created_at,
      replayed: false,
    };
  }

  /** Management award: `award` in its own transaction. */
  async adminAward(tenantId: string, prizeId: string, dto: AwardPrizeDto): Promise<PrizeAwardResultDto> {
    return this.dataSource.transaction((em) =>
      this.award(em, {
        tenantId,
        prizeId,
        userId: dto.userId,
        quantity: dto.quantity ?? 1,
        source: dto.source ?? 'admin',
        reason: dto.reason,
        reference: dto.reference,
        idempotencyKey: dto.idempotencyKey,
      }),
    );
  }

  /** The tenant's prize, 404 `prize_not_found` otherwise. */
  async findPrize(em: EntityManager, tenantId: string, prizeId: string): Promise<Prize> {
    const prize = await this.repo.findById(tenantId, prizeId, em);
    if (!prize) throw new DomainError(PrizeErrors.prize_not_found, `No prize ${prizeId.slice(0, 64)} in this tenant`);
    return prize;
  }

  // ------------------------------------------------------------------ management

  async create(tenantId: string, dto: CreatePrizeDto): Promise<PrizeDto> {
    const communityId = dto.communityId ? (await this.communities.resolve(tenantId, dto.communityId)).id : null;
    const requirementIds = await this.requirements.assertAllExist(
      this.dataSource.manager,
      tenantId,
      dto.requirementIds ?? [],
      PrizeErrors.invalid_prize,
    );
    const prize = await this.repo.save({
      tenantId,
      communityId,
      name: dto.name,
      description: dto.description ?? '',
      imageUrl: dto.imageUrl ?? null,
      kind: dto.kind,
      totalSupply: dto.totalSupply ?? null,
      awarded: 0,
      requirementIds,
    });
    return toPrizeDto(prize);
  }

  async update(tenantId: string, prizeId: string, dto: UpdatePrizeDto): Promise<PrizeDto> {
    return this.dataSource.transaction(async (em) => {
      const prize = await this.findPrize(em, tenantId, prizeId);
      await this.repo.lock(tenantId, prize.id, em);
      const fresh = await this.findPrize(em, tenantId, prize.id);
      if (dto.name !== undefined) fresh.name = dto.name;
      if (dto.description !== undefined) fresh.description = dto.description;
      if (dto.imageUrl !== undefined) fresh.imageUrl = dto.imageUrl;
      if (dto.requirementIds !== undefined)
        fresh.requirementIds = await this.requirements.assertAllExist(em, tenantId, dto.requirementIds, PrizeErrors.invalid_prize);
      if (dto.totalSupply !== undefined) {
        if (dto.totalSupply !== null && dto.totalSupply < fresh.awarded) {
          throw new DomainError(
            PrizeErrors.prize_supply_below_awarded,
            `${fresh.awarded} already awarded; the supply cannot be ${dto.totalSupply}`,
          );
        }
        fresh.totalSupply = dto.totalSupply;
      }
      try {
        return toPrizeDto(await this.repo.save(fresh, em));
      } catch (e) {
        if (e instanceof QueryFailedError && (e.driverError as { constraint?: string }).constraint === 'ck_prizes_supply')
          throw new DomainError(PrizeErrors.prize_supply_below_awarded);
        throw e;
      }
    });
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<PrizeDto>> {
    const [rows, total] = await this.repo.page(tenantId, page);
    return toPage(rows.map(toPrizeDto), total, page);
  }

  async get(tenantId: string, prizeId: string): Promise<PrizeDto> {
    return toPrizeDto(await this.findPrize(this.dataSource.manager, tenantId, prizeId));
  }

  /** Everyone who owns the prize, with their units, earliest first. */
  async owners(tenantId: string, prizeId: string, page: PageRequest): Promise<Page<PrizeOwnerDto>> {
    const prize = await this.findPrize(this.dataSource.manager, tenantId, prizeId);
    return this.ownerPage(prize.id, page);
  }

  private async ownerPage(prizeId: string, page: PageRequest): Promise<Page<PrizeOwnerDto>> {
    const { rows, total: n } = await this.views.owners(prizeId, page);
    return toPage(
      rows.map((r) => ({ userId: r.user_id, handle: r.handle, quantity: r.q, firstAwardedAt: r.first })),
      n,
      page,
    );
  }

  // ------------------------------------------------------------------ users

  /** The tenant's prizes (or only those the user owns), oldest first, with the user's units. */
  async listForUser(tenantId: string, userId: string, ownedOnly: boolean, page: PageRequest): Promise<Page<UserPrizeDto>> {
    const { rows, total: n } = await this.repo.pageForUser(tenantId, userId, ownedOnly, page);
    const prizes = await this.repo.findByIds(
      tenantId,
      rows.map((r) => r.id),
    );
    const byId = new Map(prizes.map((p) => [p.id, p]));
    return toPage(
      rows.map((r) => ({ ...toPrizeDto(byId.get(r.id)!), ownedQuantity: r.q ?? 0 })),
      n,
      page,
    );
  }

  async getForUser(tenantId: string, userId: string, prizeId: string): Promise<PrizeDetailDto> {
    const prize = await this.findPrize(this.dataSource.manager, tenantId, prizeId);
    const [owned, owners] = await Promise.all([
      this.repo.ownedQuantity(tenantId, userId, prize.id),
      this.ownerPage(prize.id, { page: 1, limit: OWNERS_IN_DETAIL, offset: 0 }),
    ]);
    return { ...toPrizeDto(prize), ownedQuantity: owned, ownerCount: owners.total, owners: owners.items };
  }

  async supply(tenantId: string, prizeId: string): Promise<PrizeSupplyDto> {
    const p = await this.findPrize(this.dataSource.manager, tenantId, prizeId);
    return {
      prizeId: p.id,
      totalSupply: p.totalSupply,
      awarded: p.awarded,
      remainingSupply: p.totalSupply === null ? null : p.totalSupply - p.awarded,
    };
  }

  /** The requirement definitions the tenant's prizes ask for, with the data the user saved. */
  async requirementsForUser(tenantId: string, userId: string): Promise<UserRequirementDto[]> {
    const em = this.dataSource.manager;
    const defs = await this.requirements.findMany(em, tenantId, await this.views.requirementIds(tenantId));
    const saved = await this.requirements.savedData(
      em,
      tenantId,
      userId,
      defs.map((d) => d.id),
    );
    return defs.map((d) => this.requirements.toUserDto(d, saved));
  }
}
