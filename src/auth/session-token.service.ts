import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { REVOCATION_CHANNEL, SessionRevocations, type RevocationNotice } from '../access/session-revocations.js';
import {
  SESSION_ALG,
  SESSION_AUDIENCE,
  SESSION_ISSUER,
  SESSION_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../access/session.constants.js';
import { Clock } from '../common/clock/clock.js';
import { randomToken, sha256Hex } from '../common/crypto/hashing.js';
import { SecretsService } from '../common/crypto/secrets.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { AuthErrors } from './auth.errors.js';
import { RefreshToken } from './entities/refresh-token.entity.js';

export interface SessionResult {
  userId: string;
  sessionToken: string;
  refreshToken: string;
}

/** A NOTIFY payload stops at 8000 bytes; past this many ids the instances reload the list instead. */
const MAX_IDS_PER_NOTICE = 150;

/**
 * Issues session tokens (signed JWTs) and refresh tokens (opaque, stored hashed). A login is a
 * session: its refresh token row's id is the `sid` of every session token issued for it, so a
 * logout ends exactly the tokens of that login (SessionRevocations).
 */
@Injectable()
export class SessionTokenService {
  constructor(
    private readonly secrets: SecretsService,
    private readonly clock: Clock,
    private readonly revocations: SessionRevocations,
    @InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>,
  ) {}

  async sessionToken(userId: string, tenantId: string, sessionId: string): Promise<string> {
    const now = this.clock.nowSeconds();
    return new SignJWT({ tid: tenantId, sid: sessionId })
      .setProtectedHeader({ alg: SESSION_ALG, typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(SESSION_ISSUER)
      .setAudience(SESSION_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + SESSION_TOKEN_TTL_SECONDS)
      .sign((await this.secrets.sessionKeys()).sign);
  }

  /** A new session: session token plus a refresh token persisted with the caller's manager. */
  async startSession(userId: string, tenantId: string, em: EntityManager = this.refreshTokens.manager): Promise<SessionResult> {
    const refreshToken = randomToken('rt');
    const sessionId = randomUUID();
    await em.insert(RefreshToken, {
      id: sessionId,
      tokenHash: sha256Hex(refreshToken),
      userId,
      tenantId,
      expiresAt: new Date(this.clock.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      revokedAt: null,
    });
    return { userId, sessionToken: await this.sessionToken(userId, tenantId, sessionId), refreshToken };
  }

  /** A new session token for a valid refresh token of this tenant. The refresh token stays valid. */
  async refresh(refreshToken: string, tenantId: string): Promise<{ sessionToken: string }> {
    const row = await this.refreshTokens.findOneBy({ tokenHash: sha256Hex(refreshToken) });
    if (!row || row.tenantId !== tenantId || row.revokedAt) {
      throw new DomainError(AuthErrors.refresh_token_invalid, 'Invalid refresh token');
    }
    if (row.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new DomainError(CommonErrors.REFRESH_TOKEN_EXPIRED, 'The refresh token has expired; log in again');
    }
    return { sessionToken: await this.sessionToken(row.userId, row.tenantId, row.id) };
  }

  /**
   * Ends one session of the user (the login of `refreshToken`), or all of them: the refresh tokens
   * are revoked and the sessions recorded in `session_revocations` and announced with NOTIFY, in
   * one transaction, so every instance refuses their session tokens from the commit on. Returns
   * how many refresh tokens were revoked.
   */
  async revoke(userId: string, refreshToken?: string): Promise<number> {
    const params: unknown[] = [userId, this.clock.now()];
    if (refreshToken !== undefined) params.push(sha256Hex(refreshToken));
    const { revoked, notice } = await this.refreshTokens.manager.transaction(async (em) => {
      // A refresh token that expired over 10 minutes ago issued no session token still valid.
      const [row]: { revoked: number; ended: string[] | null; expires_at: Date }[] = await em.query(
        `WITH revoked AS (
           UPDATE refresh_tokens SET revoked_at = $2
           WHERE user_id = $1 AND revoked_at IS NULL ${refreshToken !== undefined ? 'AND token_hash = $3' : ''}
           RETURNING id, expires_at),
         ended AS (
           INSERT INTO session_revocations (session_id, expires_at)
           SELECT id, now() + interval '11 minutes' FROM revoked WHERE expires_at > now() - interval '11 minutes'
           RETURNING session_id, expires_at)
         SELECT (SELECT count(*)::int FROM revoked) AS revoked, (SELECT array_agg(session_id) FROM ended) AS ended, (SELECT max(expires_at) FROM ended) AS expires_at`,
        params,
      );
      const ended = row.ended ?? [];
      const notice: RevocationNotice =
        ended.length > MAX_IDS_PER_NOTICE ? { reload: true } : { sessionIds: ended, expiresAt: row.expires_at?.getTime() };
      if (ended.length > 0) await em.query('SELECT pg_notify($1, $2)', [REVOCATION_CHANNEL, JSON.stringify(notice)]);
      // Forgotten rows are purged now and then (about one logout in a hundred).
      if (Math.random() < 0.01) await em.query(`DELETE FROM session_revocations WHERE expires_at < now() - interval '1 minute'`);
      return { revoked: row.revoked, notice: { sessionIds: ended, expiresAt: row.expires_at?.getTime() } };
    });
    // This instance refuses them at once; its own NOTIFY comes back too (adding twice is harmless).
    this.revocations.apply(notice);
    return revoked;
  }
}
