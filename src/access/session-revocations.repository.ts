import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/** Ended sessions (`session_revocations`) and their announcement on a PostgreSQL channel. */
@Injectable()
export class SessionRevocationsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Every revocation whose last token has not expired. */
  @GenerateSql()
  active(em?: EntityManager): Promise<{ session_id: string | null; user_id: string | null; expires_at: Date }[]> {
    return this.manager(em).query('SELECT session_id, user_id, expires_at FROM session_revocations WHERE expires_at > now()');
  }

  /**
   * Records the sessions whose refresh token expired less than 11 minutes ago (older ones issued no
   * session token still valid); the ids recorded and until when they must be refused.
   */
  @GenerateSql({ params: [[DUMMY.uuid], [DUMMY.date]] })
  async record(sessionIds: string[], refreshExpiries: Date[], em?: EntityManager): Promise<{ ended: string[]; expiresAt: Date | null }> {
    const [row]: { ended: string[] | null; expires_at: Date | null }[] = await this.manager(em).query(
      `WITH ended AS (
         INSERT INTO session_revocations (session_id, expires_at)
         SELECT s.id, now() + interval '11 minutes' FROM unnest($1::uuid[], $2::timestamptz[]) AS s(id, expires_at)
         WHERE s.expires_at > now() - interval '11 minutes'
         RETURNING session_id, expires_at)
       SELECT (SELECT array_agg(session_id) FROM ended) AS ended, (SELECT max(expires_at) FROM ended) AS expires_at`,
      [sessionIds, refreshExpiries],
    );
    return { ended: row.ended ?? [], expiresAt: row.expires_at };
  }

  /** Sends `payload` on `channel` when the caller's transaction commits. */
  @GenerateSql({ params: ['cgs_session_revocations', '{}'] })
  async notify(channel: string, payload: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /** Forgets rows whose tokens have all expired. */
  @GenerateSql()
  async purge(em?: EntityManager): Promise<void> {
    await this.manager(em).query(`DELETE FROM session_revocations WHERE expires_at < now() - interval '1 minute'`);
  }
}
