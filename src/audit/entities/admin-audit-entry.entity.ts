import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One management write (a non-GET request under `/v1/admin` that reached its handler): who sent
 * it, which route, with what (secrets redacted), and how it ended. Append-only.
 */
@Entity('admin_audit_log')
// Written by the AdminAuditLog migration: (tenant_id, created_at DESC), the list's order.
@Index('ix_admin_audit_log_tenant_time', { synchronize: false })
// The retention pass: the oldest entries of every tenant.
@Index('ix_admin_audit_log_time', ['createdAt'])
export class AdminAuditEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  /** The caller: `api-key:<first 12 hex digits of the key's SHA-256>`, never the key. */
  @Column({ type: 'varchar', length: 64 })
  actor: string;

  @Column({ type: 'varchar', length: 8 })
  method: string;

  /** The route template (`/v1/admin/communities/:communityId`), not the URL. */
  @Column({ type: 'varchar', length: 256 })
  route: string;

  /** The path parameters. */
  @Column({ type: 'jsonb' })
  target: Record<string, string>;

  /** The request body, secrets redacted, bounded; null when there was none. */
  @Column({ type: 'jsonb', nullable: true })
  body: object | null;

  @Column({ type: 'smallint' })
  statusCode: number;

  /** The id of the resource the response names, when it names one. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  outcome: string | null;

  /** The client went away before the whole answer was sent (the request ran to its end all the same). */
  @Column({ type: 'boolean', default: false })
  aborted: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
