import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity.js';

/**
 * A blockchain wallet of a user, linked to the login that created it.
 * - zkLogin: chain `sui`, the zkLogin address of the provider account (`claimIss`/`claimAud`/`claimSub`
 *   record which account; the salt is derived again on demand, never stored).
 * - SIWE: chain `evm:<chainId>`, the checksummed address that signed in.
 * One wallet per (user, provider, chain); an address belongs to one user of a tenant per chain.
 */
@Entity('wallets')
@Index('uq_wallets_user_provider_chain', ['tenantId', 'userId', 'provider', 'chain'], { unique: true })
@Index('uq_wallets_chain_address', ['tenantId', 'chain', 'address'], { unique: true })
export class Wallet {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** `providerA`, `providerD` (zkLogin) or `siwe`. */
  @Column({ type: 'varchar', length: 16 })
  provider: string;

  /** `sui` or `evm:<chainId>`. */
  @Column({ type: 'varchar', length: 32 })
  chain: string;

  @Column({ type: 'varchar', length: 128 })
  address: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  claimIss: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  claimAud: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  claimSub: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
