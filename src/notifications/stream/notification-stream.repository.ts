import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../../database/repository.js';
import type { NotificationFields } from '../dto/notification.dto.js';

/** What is visible now and was not in the cursor's snapshot. */
export interface SinceResult {
  /** The snapshot the rows were read in (the next cursor). */
  snapshot: string;
  /** The cursor's snapshot is ahead of this database's (it was not taken here). */
  future: boolean;
  /** Oldest first; at most `limit`, the newest ones when there were more. */
  rows: NotificationFields[];
  /** There were more than `limit`. */
  more: boolean;
}

const COLUMNS = 'n.id, n.type, n.title, n.data, n.community_id AS "communityId", n.read_at AS "readAt", n.created_at AS "createdAt"';
// Stream order: by writing transaction, then as written (rows from before \`seq\` have none: by id
// among themselves). Cursors count rows in this order.
const ORDER_ASC = 'n.xid, n.created_at, n.seq, n.id';
const ORDER_DESC = 'n.xid DESC, n.created_at DESC, n.seq DESC, n.id DESC';
// Rows whose transaction the snapshot `s` did not see as committed (the index bounds the scan at its xmin).
const UNSEEN = (s: string) => `n.xid >= pg_snapshot_xmin(${s})::text::bigint AND NOT pg_visible_in_snapshot(n.xid::text::xid8, ${s})`;

/** The live stream's reads (snapshot cursors, src/notifications/stream/stream-cursor.ts) and stream tickets. */
@Injectable()
export class NotificationStreamRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The database's current snapshot: where a stream that resumes nothing starts. */
  @GenerateSql()
  async snapshot(em?: EntityManager): Promise<string> {
    const [row]: { snapshot: string }[] = await this.manager(em).query('SELECT pg_current_snapshot()::text AS snapshot');
    return row.snapshot;
  }

  /**
   * The user's notifications committed since snapshot `seen`, read in one statement with the
   * snapshot it ran in (so the next read starts exactly where this one saw).
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, '1:1:', 200] })
  async since(tenantId: string, userId: string, seen: string, limit: number, em?: EntityManager): Promise<SinceResult> {
    const rows: (Partial<NotificationFields> & { snapshot: string; future: boolean })[] = await this.manager(em).query(
      `WITH s AS (SELECT pg_current_snapshot() AS now, $3::pg_snapshot AS seen)
       SELECT s.now::text AS snapshot, pg_snapshot_xmax(s.seen) > pg_snapshot_xmax(s.now) AS future, n.*
       FROM s LEFT JOIN LATERAL (
         SELECT ${COLUMNS} FROM notifications n
         WHERE n.tenant_id = $1 AND n.user_id = $2 AND ${UNSEEN('s.seen')}
         ORDER BY ${ORDER_DESC} LIMIT $4 + 1
       ) n ON true`,
      [tenantId, userId, seen, limit],
    );
    const found = rows
      .filter((r) => r.id !== null && r.id !== undefined)
      .map(({ snapshot: _s, future: _f, ...r }) => r as NotificationFields);
    return { snapshot: rows[0].snapshot, future: rows[0].future, rows: found.slice(0, limit).reverse(), more: found.length > limit };
  }

  /**
   * The user's notifications visible in snapshot `to` and not in `from`, in stream order, after the
   * first `skip`: the rest of a batch a client saw part of.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, '1:1:', '1:2:', 1, 200] })
  async between(
    tenantId: string,
    userId: string,
    from: string,
    to: string,
    skip: number,
    limit: number,
    em?: EntityManager,
  ): Promise<NotificationFields[]> {
    return this.manager(em).query(
      `SELECT ${COLUMNS} FROM notifications n
       WHERE n.tenant_id = $1 AND n.user_id = $2 AND ${UNSEEN('$3::pg_snapshot')} AND pg_visible_in_snapshot(n.xid::text::xid8, $4::pg_snapshot)
       ORDER BY ${ORDER_ASC} OFFSET $5 LIMIT $6`,
      [tenantId, userId, from, to, skip, limit],
    );
  }

  /** Stores a stream ticket (its hash); now and then drops the expired ones. */
  @GenerateSql({
    params: [{ tokenHash: 'a'.repeat(64), tenantId: DUMMY.tenant, userId: DUMMY.uuid, sessionId: null, expiresAt: DUMMY.date }],
  })
  async insertTicket(
    t: { tokenHash: string; tenantId: string; userId: string; sessionId: string | null; expiresAt: Date },
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).query(
      'INSERT INTO notification_stream_tickets (token_hash, tenant_id, user_id, session_id, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [t.tokenHash, t.tenantId, t.userId, t.sessionId, t.expiresAt],
    );
  }

  /** Takes the ticket of this hash if it has not expired at `now`: deleted in the same statement, so it serves once on any instance. */
  @GenerateSql({ params: ['a'.repeat(64), DUMMY.date] })
  async consumeTicket(
    tokenHash: string,
    now: Date,
    em?: EntityManager,
  ): Promise<{ tenant_id: string; user_id: string; session_id: string | null } | null> {
    const [rows]: [{ tenant_id: string; user_id: string; session_id: string | null; expires_at: Date }[], number] = await this.manager(
      em,
    ).query('DELETE FROM notification_stream_tickets WHERE token_hash = $1 RETURNING tenant_id, user_id, session_id, expires_at', [
      tokenHash,
    ]);
    const t = rows[0];
    return t && t.expires_at > now ? { tenant_id: t.tenant_id, user_id: t.user_id, session_id: t.session_id } : null;
  }

  /** Drops tickets that expired before `before`. */
  @GenerateSql({ params: [DUMMY.date] })
  async purgeTickets(before: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query('DELETE FROM notification_stream_tickets WHERE expires_at < $1', [before]);
  }
}
