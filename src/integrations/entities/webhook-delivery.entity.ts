import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { WebhookSubscription } from './webhook-subscription.entity.js';

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'dead';

/**
 * One event for one subscription, created in the event's transaction. Workers claim due
 * deliveries with `FOR UPDATE SKIP LOCKED` and push `nextAttemptAt` past the request timeout (the
 * lease), so a worker that dies mid-batch leaves them to be claimed again: at least once.
 * While its subscription is inactive an unfinished delivery is `paused`: out of the due index the
 * workers walk, until the subscription is active again.
 */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_due', ['nextAttemptAt'], { where: "status IN ('pending', 'delivering') AND NOT paused" })
@Index('ix_webhook_deliveries_paused', ['subscriptionId'], { where: 'paused' })
@Index('ix_webhook_deliveries_subscription', ['subscriptionId', 'createdAt'])
@Index('ix_webhook_deliveries_event', ['eventId'])
@Index('ix_webhook_deliveries_finished', ['updatedAt'], { where: "status IN ('delivered', 'dead')" })
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  subscriptionId: string;

  /** Deleting a subscription deletes its deliveries. */
  @ManyToOne(() => WebhookSubscription, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: Relation<WebhookSubscription>;

  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** Held while its subscription is inactive (set and cleared with `active`, in that transaction). */
  @Column({ type: 'boolean', default: false })
  paused: boolean;

  @Column({ type: 'timestamptz' })
  nextAttemptAt: Date;

  /** The HTTP status of the last attempt (null: no answer). */
  @Column({ type: 'smallint', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
