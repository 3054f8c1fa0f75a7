import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity.js';

/** One HTTP attempt of a delivery: what operators read to see why a receiver fails. */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_delivery', ['deliveryId', 'attemptedAt'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  deliveryId: string;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: Relation<WebhookDelivery>;

  @Column({ type: 'timestamptz' })
  attemptedAt: Date;

  /** null: no HTTP answer (timeout, refused connection, refused address). */
  @Column({ type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ type: 'int' })
  durationMs: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
