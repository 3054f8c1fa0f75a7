import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A tenant's webhook: where events of some types are POSTed. The signing secret is stored
 * encrypted (EncryptionService); after a rotation the previous one still signs until
 * `previousSecretExpiresAt`, so receivers can switch without dropping deliveries.
 */
@Entity('webhook_subscriptions')
@Index('ix_webhook_subscriptions_tenant', ['tenantId', 'createdAt'])
export class WebhookSubscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The event types delivered (`*`: every type). */
  @Column({ type: 'text', array: true })
  eventTypes: string[];

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'varchar', length: 128, nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  secretEncrypted: string;

  @Column({ type: 'text', nullable: true })
  previousSecretEncrypted: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
