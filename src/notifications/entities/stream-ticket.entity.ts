import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A single-use credential for opening the notification stream from a browser, whose `EventSource`
 * cannot send an `Authorization` header: issued to a session (`POST /v1/user/notifications/stream-ticket`),
 * valid about a minute, deleted when used. Only its SHA-256 is stored.
 */
@Entity('notification_stream_tickets')
@Index('ix_notification_stream_tickets_expires', ['expiresAt'])
export class StreamTicket {
  /** SHA-256 (hex) of the ticket. */
  @PrimaryColumn({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  userId: string;

  /** The session (`sid`) the ticket was issued to; the stream ends when it does. */
  @Column({ type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
