import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';

export type NonceKind = 'login_token' | 'siwe';

/** Expired rows are deleted on about one consumption in this many. */
const PURGE_ONE_IN = 100;

/**
 * One-time nonces, enforced by the primary key of `used_nonces` (so across instances and
 * concurrent requests: the second INSERT waits for the first transaction and then conflicts).
 */
@Injectable()
export class NonceService {
  /**
   * Marks the nonce used until `expiresAt`, inside the caller's transaction. Returns false when it
   * is already used and not yet expired. A row whose `expiresAt` has passed is taken over.
   */
  async consume(em: EntityManager, r: { tenantId: string; kind: NonceKind; nonce: string; expiresAt: Date; now: Date }): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `INSERT INTO used_nonces (tenant_id, kind, nonce, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, kind, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
       WHERE used_nonces.expires_at < $5
       RETURNING nonce`,
      [r.tenantId, r.kind, r.nonce, r.expiresAt, r.now],
    );
    if (rows.length > 0 && randomInt(PURGE_ONE_IN) === 0) await this.purgeExpired(em, r.now);
    return rows.length > 0;
  }

  /** Deletes the nonces whose tokens can no longer be accepted. Returns how many. */
  async purgeExpired(em: EntityManager, now: Date): Promise<number> {
    const res: [unknown[], number] = await em.query('DELETE FROM used_nonces WHERE expires_at < $1', [now]);
    return res[1];
  }
}
