import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One-time values that were consumed: the `_nonce` of OAuth login tokens (`kind` = `login_token`)
 * and SIWE nonces (`kind` = `siwe`). The primary key makes a second use fail in the database,
 * so the rule holds across instances. A row may be reused only after `expiresAt` (when the
 * token or message carrying the nonce can no longer be accepted); expired rows are purged.
 */
@Entity('used_nonces')
@Index('ix_used_nonces_expires', ['expiresAt'])
export class UsedNonce {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  nonce: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
