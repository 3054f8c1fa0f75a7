import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';

export type NonceKind = 'login_token' | 'siwe';

/** Expired rows are deleted on about one consumption in this many. */
const PURGE_ONE_IN = 100;

/** Placeholders (e.g. `$1`) or SQL expressions of the values a nonce claim needs. */
export interface NonceClaimParams {
  tenantId: string;
  kind: string;
  nonce: string;
  expiresAt: string;
  now: string;
}

/**
 * One-time nonces, enforced by the primary key of `used_nonces` (so across instances and
 * concurrent requests: the second INSERT waits for the first transaction and then conflicts).
 */
@Injectable()
export class NonceService {
  /**
   * SQL that marks the nonce used until its expiry and returns one row when it was fresh: none when
   * it is already used and not yet expired (a row whose expiry has passed is taken over). Meant as
   * a CTE of the caller's statement, inside the caller's transaction.
   */
  claimSql(p: NonceClaimParams): string {
    return `INSERT INTO used_nonces (tenant_id, kind, nonce, expires_at) VALUES (${p.tenantId}, ${p.kind}, ${p.nonce}, ${p.expiresAt})
       ON CONFLICT (tenant_id, kind, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
       WHERE used_nonces.expires_at < ${p.now}
       RETURNING 1`;
  }

  /** After a claim: on about one in PURGE_ONE_IN, deletes the nonces that can no longer be accepted. */
  async purgeSometimes(em: EntityManager, now: Date): Promise<void> {
    if (randomInt(PURGE_ONE_IN) === 0) await this.purgeExpired(em, now);
  }

  /** Deletes the nonces whose tokens can no longer be accepted. Returns how many. */
  async purgeExpired(em: EntityManager, now: Date): Promise<number> {
    const res: [unknown[], number] = await em.query('DELETE FROM used_nonces WHERE expires_at < $1', [now]);
    return res[1];
  }
}
