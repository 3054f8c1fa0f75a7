import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type MintStatus = 'pending' | 'sending' | 'minted' | 'failed';

/** The snapshot of the avatar a token shows (frozen when the mint is requested). */
export interface AvatarSnapshot {
  name: string;
  description: string;
  image: string | null;
  attributes: { trait_type: string; value: string | number }[];
}

/**
 * A mint job: one token per (user, community, blockchain, avatar version). The worker claims due
 * jobs with `FOR UPDATE SKIP LOCKED`; `nextAttemptAt` is both the backoff and the lease of a
 * claimed job, so a job whose worker died is taken up again once it passes.
 *
 * Never twice: `tokenId` is derived from the job id, so the contract refuses a second token for the
 * job; the signed transaction (`rawTx`, `txHash`, `nonce`) is stored BEFORE it is broadcast, so a
 * restarted worker re-broadcasts or finds the same transaction instead of signing a new one.
 */
@Entity('avatar_mints')
@Index('uq_avatar_mints_version', ['communityId', 'userId', 'blockchain', 'avatarVersion'], { unique: true })
@Index('ix_avatar_mints_due', ['status', 'nextAttemptAt'])
@Index('ix_avatar_mints_user', ['tenantId', 'communityId', 'userId', 'createdAt'])
export class AvatarMint {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @Column({ type: 'uuid' })
  userId: string;

  /** Configured blockchain name. */
  @Column({ type: 'varchar', length: 32 })
  blockchain: string;

  @Column({ type: 'int' })
  chainId: number;

  @Column({ type: 'varchar', length: 42 })
  contractAddress: string;

  @Column({ type: 'varchar', length: 42 })
  recipient: string;

  @Column({ type: 'int' })
  avatarVersion: number;

  /** uint256 as decimal text. */
  @Column({ type: 'varchar', length: 78 })
  tokenId: string;

  /** The token URI written on chain: the public metadata URL of this job. */
  @Column({ type: 'varchar', length: 2048 })
  tokenUri: string;

  @Column({ type: 'jsonb' })
  metadata: AvatarSnapshot;

  @Column({ type: 'varchar', length: 16 })
  status: MintStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ type: 'int', nullable: true })
  nonce: number | null;

  @Column({ type: 'text', nullable: true })
  rawTx: string | null;

  @Column({ type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  mintedAt: Date | null;
}
