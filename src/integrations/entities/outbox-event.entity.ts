import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A domain event, written in the transaction of the change it reports (docs/integrations.md): it
 * exists only if that change committed, and only if a sink takes it (an active subscription of the
 * tenant for its type, or NATS). Read by the webhook worker (through its deliveries) and the NATS
 * sink; never updated but for `natsPending`.
 */
@Entity('outbox_events')
@Index('ix_outbox_events_time', ['occurredAt'])
@Index('ix_outbox_events_nats_pending', ['occurredAt'], { where: 'nats_pending' })
export class OutboxEvent {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  /** `user.registered`, `store.purchase_completed`... (the catalogue: src/integrations/event-catalog.ts). */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The version of the payload's schema for this type. */
  @Column({ type: 'smallint' })
  version: number;

  /** The service clock when the change was made (in its transaction). */
  @Column({ type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** Waiting for the NATS sink (only set when NATS_URL is configured). */
  @Column({ type: 'boolean', default: false })
  natsPending: boolean;
}
