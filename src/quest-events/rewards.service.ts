import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { getAddress } from 'ethers';
import type { DataSource, EntityManager } from 'typeorm';
import { UsersService } from '../users/users.service.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { NotificationType } from '../notifications/notification-types.js';
import { LedgerService } from '../resources/ledger.service.js';
import type {
  AdminRewardAllocationDto,
  ClaimRewardDto,
  CreateRewardDto,
  RewardAllocationDto,
  RewardClaimDto,
  RewardDto,
} from './dto/reward.dto.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { type QuestEventReward, WALLET_ADDRESSES } from './entities/quest-event-reward.entity.js';
import type { RewardAllocation } from './entities/reward-allocation.entity.js';
import { EventReferencesReadModel } from './event-references.read-model.js';
import { QuestEventErrors } from './quest-events.errors.js';
import { QuestEventsService } from './quest-events.service.js';
import { RewardsRepository } from './rewards.repository.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { idOf } from '../common/validation/uuid.js';

export function toRewardDto(r: QuestEventReward): RewardDto {
  return {
    id: r.id,
    eventId: r.eventId,
    name: r.name,
    description: r.description,
    kind: r.kind,
    resourceTypeId: r.resourceTypeId,
    itemId: r.itemId,
    amount: r.amount,
    tickets: r.tickets,
    ticketCost: r.ticketCost,
    supply: r.supply,
    claimed: r.claimed,
    rankFrom: r.rankFrom,
    rankTo: r.rankTo,
    requiresEmail: r.requiresEmail,
    requiresWalletAddress: r.requiresWalletAddress,
    walletChain: r.walletChain,
    requiresAddress: r.requiresAddress,
  };
}

function toAllocationDto(a: RewardAllocation, reward: QuestEventReward): RewardAllocationDto {
  return {
    id: a.id,
    eventId: a.eventId,
    reward: toRewardDto(reward),
    tickets: a.tickets,
    ticketsSpent: a.ticketsSpent,
    ticketsRemaining: a.tickets - a.ticketsSpent,
    rank: a.rank,
    score: a.score,
    requirementData: a.requirementData,
    createdAt: a.createdAt,
  };
}

/**
 * A reward whose claim costs more tickets than an allocation of it holds could never be claimed
 * (every claim would fail `not_enough_tickets`): refused wherever a reward's tickets are set.
 */
function assertClaimable(tickets: number, ticketCost: number): void {
  if (ticketCost > tickets)
    throw new DomainError(
      QuestEventErrors.ticket_cost_above_tickets,
      `ticketCost (${ticketCost}) must not be above tickets (${tickets}): an allocation of this reward could never claim it`,
    );
}

/** Event rewards (management), the user's allocations and claims. */
@Injectable()
export class RewardsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly repo: RewardsRepository,
    private readonly references: EventReferencesReadModel,
    private readonly ledger: LedgerService,
    private readonly inventory: InventoryService,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
    private readonly domainEvents: DomainEvents,
    private readonly users: UsersService,
  ) {}

  async createReward(tenantId: string, eventRef: string, dto: CreateRewardDto): Promise<RewardDto> {
    return this.dataSource.transaction((em) => this.createRewardIn(em, tenantId, eventRef, dto));
  }

  /**
   * Under the event row's lock: a completion's claim waits for the reward's commit, or the reward
   * sees the event completing. Unlocked, a reward inserted just after the claim was seen by the
   * completion's later batches only, and paid to part of the standings.
   */
  private async createRewardIn(em: EntityManager, tenantId: string, eventRef: string, dto: CreateRewardDto): Promise<RewardDto> {
    const event = await this.events.resolve(tenantId, eventRef, { includeDrafts: true, em, lock: true });
    if (event.state === 'completing' || event.state === 'completed' || event.state === 'cancelled')
      throw new DomainError(
        QuestEventErrors.quest_event_state,
        `The event is ${event.state === 'completing' ? 'being completed' : event.state}: rewards cannot be added`,
      );
    if (dto.rankFrom !== undefined && dto.rankTo !== undefined && dto.rankFrom > dto.rankTo)
      throw new DomainError(QuestEventErrors.invalid_reward, 'rankFrom must not be above rankTo');
    assertClaimable(dto.tickets ?? 1, dto.ticketCost ?? 1);
    if (dto.kind === 'resource') {
      const type = dto.resourceTypeId ? await this.references.resourceType(tenantId, dto.resourceTypeId.toLowerCase(), em) : null;
      if (!type || type.community_id !== event.communityId)
        throw new DomainError(QuestEventErrors.invalid_reward, "resourceTypeId is not a resource type of the event's community");
      if (type.kind === 'scoped')
        throw new DomainError(
          QuestEventErrors.scoped_event_reward,
          'resourceTypeId is a scoped resource type: an event reward is paid after the event, so it pays in a global type',
        );
    }
    if (dto.kind === 'item') {
      const ok = await this.references.isCommunityItem(tenantId, event.communityId, dto.itemId, em);
      if (!ok) throw new DomainError(QuestEventErrors.invalid_reward, "itemId is not an inventory item of the event's community");
    }
    const reward = await this.repo.insertReward(
      {
        tenantId,
        eventId: event.id,
        name: dto.name,
        description: dto.description ?? '',
        kind: dto.kind,
        resourceTypeId: dto.kind === 'resource' ? dto.resourceTypeId!.toLowerCase() : null,
        itemId: dto.kind === 'item' ? dto.itemId!.toLowerCase() : null,
        amount: dto.amount ?? 1,
        tickets: dto.tickets ?? 1,
        ticketCost: dto.ticketCost ?? 1,
        supply: dto.supply ?? null,
        claimed: 0,
        rankFrom: dto.rankFrom ?? null,
        rankTo: dto.rankTo ?? null,
        requiresEmail: dto.requiresEmail ?? false,
        requiresWalletAddress: dto.requiresWalletAddress ?? false,
        walletChain: dto.walletChain ?? 'evm',
        requiresAddress: dto.requiresAddress ?? false,
      },
      em,
    );
    this.events.eventsChangedIn(em, tenantId); // at the commit: the itemId / resourceId filters
    return toRewardDto(reward);
  }

  async listRewards(tenantId: string, eventRef: string): Promise<RewardDto[]> {
    const event = await this.events.resolve(tenantId, eventRef, { includeDrafts: true });
    const rows = await this.repo.findRewards(event.id);
    return rows.map(toRewardDto);
  }

  /** Every allocation of the event, best rank first (management; drafts included, which have none). */
  async eventAllocations(tenantId: string, eventRef: string, page: PageRequest): Promise<Page<AdminRewardAllocationDto>> {
    const event = await this.events.resolve(tenantId, eventRef, { includeDrafts: true });
    const { rows, total } = await this.repo.findEventAllocations(tenantId, event.id, page);
    const names = await this.users.names(
      tenantId,
      rows.map((a) => a.userId),
    );
    return toPage(
      rows.map((a) => ({
        ...toAllocationDto(a, a.reward!),
        userId: a.userId,
        handle: names.get(a.userId)?.handle ?? null,
        displayName: names.get(a.userId)?.displayName ?? null,
      })),
      total,
      page,
    );
  }

  /** The user's allocations in the event, oldest first, with the data of their last claim. */
  async allocations(tenantId: string, userId: string, eventRef: string): Promise<RewardAllocationDto[]> {
    const event = await this.events.resolve(tenantId, eventRef);
    const rows = await this.repo.findAllocations(tenantId, event.id, userId);
    return rows.map((a) => toAllocationDto(a, a.reward!));
  }

  /**
   * Spends `reward.ticketCost` tickets of the allocation on one unit of its reward, atomically:
   * the tickets by a conditional update (`tickets - tickets_spent >= cost`), the supply by another
   * (`claimed < supply`), then the resource credit / item grant, the claim row and the
   * notification, all in one transaction: any failure changes nothing.
   */
  async claim(tenantId: string, userId: string, eventRef: string, allocationId: string, dto: ClaimRewardDto): Promise<RewardClaimDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    const notFound = () =>
      new DomainError(QuestEventErrors.allocation_not_found, `No reward allocation ${allocationId.slice(0, 64)} of yours in this event`);
    const id = idOf(allocationId);
    if (!id) throw notFound();
    return this.dataSource.transaction(async (em) => {
      const allocation = await this.repo.findAllocation(tenantId, event.id, userId, id, em);
      if (!allocation) throw notFound();
      const reward = allocation.reward!;
      const data = this.requirementData(reward, dto);

      const spent = await this.repo.spendTickets(allocation.id, reward.ticketCost, data, em);
      if (spent === null) {
        const left = await this.repo.ticketsLeft(allocation.id, em);
        throw new DomainError(
          QuestEventErrors.not_enough_tickets,
          `The allocation has ${left} ticket(s) left; "${reward.name}" costs ${reward.ticketCost}`,
        );
      }
      const supplied = await this.repo.takeSupply(reward.id, em);
      if (supplied === null) throw new DomainError(QuestEventErrors.reward_sold_out, `"${reward.name}" has no supply left`);

      const claim = await this.repo.insertClaim(
        {
          tenantId,
          allocationId: allocation.id,
          rewardId: reward.id,
          userId,
          ticketsSpent: reward.ticketCost,
          email: data.email ?? null,
          walletAddress: data.walletAddress ?? null,
          address: (data.address as Record<string, unknown> | undefined) ?? null,
          createdAt: this.clock.now(),
        },
        em,
      );
      await this.deliver(em, tenantId, userId, reward, claim.id);
      const status = reward.kind === 'manual' ? 'pending_fulfilment' : 'processed';
      await this.notifications.notify(em, {
        tenantId,
        userId,
        communityId: event.communityId,
        type: NotificationType.ClaimProcessed,
        title: `Your claim of ${reward.name} was ${status === 'processed' ? 'processed' : 'received'}`,
        data: { eventId: event.id, rewardId: reward.id, claimId: claim.id, status },
      });
      await this.domainEvents.publish(em, 'reward.claimed', {
        tenantId,
        eventId: event.id,
        allocationId: allocation.id,
        rewardId: reward.id,
        claimId: claim.id,
        userId,
        ticketsSpent: reward.ticketCost,
        status,
      });
      allocation.ticketsSpent = spent;
      allocation.requirementData = data;
      reward.claimed = supplied;
      return { claimId: claim.id, allocation: toAllocationDto(allocation, reward), ticketsSpent: reward.ticketCost, status };
    });
  }

  private async deliver(em: EntityManager, tenantId: string, userId: string, reward: QuestEventReward, claimId: string): Promise<void> {
    if (reward.kind === 'resource') {
      await this.ledger.credit(em, {
        tenantId,
        userId,
        resourceTypeId: reward.resourceTypeId!,
        amount: reward.amount,
        reason: 'event_reward',
        reference: claimId,
        idempotencyKey: `event-claim:${claimId}`,
      });
    } else if (reward.kind === 'item') {
      await this.inventory.grantItem(em, {
        tenantId,
        userId,
        itemId: reward.itemId!,
        quantity: reward.amount,
        reason: 'event_reward',
        reference: claimId,
        idempotencyKey: `event-claim:${claimId}`,
      });
    }
  }

  /** Checks what the reward requires and normalises it (the wallet address in its chain's form). */
  private requirementData(reward: QuestEventReward, dto: ClaimRewardDto): { email?: string; walletAddress?: string; address?: object } {
    const missing: string[] = [];
    if (reward.requiresEmail && !dto.email) missing.push('email');
    if (reward.requiresWalletAddress && !dto.walletAddress) missing.push('walletAddress');
    if (reward.requiresAddress) {
      const a = dto.address;
      const lacking = (['addressLine1', 'city', 'postalCode', 'country'] as const).filter((k) => !a?.[k]?.trim());
      if (lacking.length) missing.push(`address (${lacking.join(', ')})`);
    }
    if (missing.length) throw new DomainError(QuestEventErrors.claim_requirements, `"${reward.name}" requires: ${missing.join(', ')}`);
    const out: { email?: string; walletAddress?: string; address?: object } = {};
    if (dto.email) out.email = dto.email;
    if (dto.walletAddress) out.walletAddress = walletAddressFor(reward, dto.walletAddress);
    if (dto.address) out.address = { ...dto.address };
    return out;
  }
}

/**
 * The claim's wallet address in its chain's form, if it is of a chain the reward takes: an EVM
 * address checksummed (ethers), a Sui address normalised by the Sui SDK (lower case).
 */
function walletAddressFor(reward: QuestEventReward, address: string): string {
  const chain = (['evm', 'sui'] as const).find((c) => WALLET_ADDRESSES[c].pattern.test(address));
  if (!chain || (reward.walletChain !== 'any' && reward.walletChain !== chain)) {
    const taken: (keyof typeof WALLET_ADDRESSES)[] = reward.walletChain === 'any' ? ['evm', 'sui'] : [reward.walletChain];
    throw new DomainError(
      QuestEventErrors.claim_requirements,
      `"${reward.name}" takes ${taken.map((c) => WALLET_ADDRESSES[c].named).join(' or ')}`,
    );
  }
  if (chain === 'sui') return normalizeSuiAddress(address);
  try {
    return getAddress(address);
  } catch {
    throw new DomainError(
      QuestEventErrors.claim_requirements,
      'walletAddress has an invalid EIP-55 checksum (send it checksummed or all lowercase)',
    );
  }
}
