import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '../../database/base.entity.js';
import { QuestEvent } from './quest-event.entity.js';

export const REWARD_KINDS = ['resource', 'item', 'manual'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];
/** The chain of the wallet address a claim gives: an EVM address, a Sui address (a zkLogin wallet), or either. */
export const WALLET_CHAINS = ['evm', 'sui', 'any'] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];
/** A wallet address of each chain, and how a refusal names it. */
export const WALLET_ADDRESSES = {
  evm: { pattern: /^0x[0-9a-fA-F]{40}$/, named: 'an EVM wallet address (0x and 40 hexadecimal digits)' },
  sui: { pattern: /^0x[0-9a-fA-F]{64}$/, named: 'a Sui wallet address (0x and 64 hexadecimal digits)' },
} as const;

/**
 * A reward of a quest event. At completion every eligible participant whose rank is inside
 * [rankFrom, rankTo] gets an allocation of `tickets` tickets for it; a claim spends `ticketCost`
 * of them and takes one unit of `supply` (`claimed` rises by a conditional update, never past it).
 * `resource` credits `amount` of a resource type, `item` grants `amount` units of an inventory
 * item, `manual` is fulfilled by the operator with the submitted data (email, wallet, address).
 */
@Entity('quest_event_rewards')
@Index('ix_quest_event_rewards_event', ['eventId'])
@Check('ck_quest_event_rewards_supply', 'claimed >= 0 AND (supply IS NULL OR claimed <= supply)')
@Check('ck_quest_event_rewards_tickets', 'tickets >= 1 AND ticket_cost >= 1 AND amount >= 1')
export class QuestEventReward extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  eventId: string;

  @ManyToOne(() => QuestEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Relation<QuestEvent>;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  kind: RewardKind;

  @Column({ type: 'uuid', nullable: true })
  resourceTypeId: string | null;

  @Column({ type: 'uuid', nullable: true })
  itemId: string | null;

  @Column({ type: 'int', default: 1 })
  amount: number;

  @Column({ type: 'int', default: 1 })
  tickets: number;

  @Column({ type: 'int', default: 1 })
  ticketCost: number;

  @Column({ type: 'int', nullable: true })
  supply: number | null;

  @Column({ type: 'int', default: 0 })
  claimed: number;

  @Column({ type: 'int', nullable: true })
  rankFrom: number | null;

  @Column({ type: 'int', nullable: true })
  rankTo: number | null;

  @Column({ type: 'boolean', default: false })
  requiresEmail: boolean;

  @Column({ type: 'boolean', default: false })
  requiresWalletAddress: boolean;

  @Column({ type: 'varchar', length: 8, default: 'evm' })
  walletChain: WalletChain;

  @Column({ type: 'boolean', default: false })
  requiresAddress: boolean;
}
