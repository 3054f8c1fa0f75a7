import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionRevocations } from '../access/session-revocations.js';
import {
  SESSION_ALG,
  SESSION_AUDIENCE,
  SESSION_ISSUER,
  SESSION_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../access/session.constants.js';
import { Clock } from '../common/clock/clock.js';
import { randomToken, sha256Hex } from '../crypto/hashing.js';
import { SecretsService } from '../crypto/secrets.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { AuthErrors } from './auth.errors.js';
import { AuthRepository } from './auth.repository.js';

export interface PreparedSession {
  id: string;
  refreshToken: string;
  tokenHash: string;
  expiresAt: Date;
}

export interface SessionResult {
  userId: string;
  sessionToken: string;
  refreshToken: string;
}

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
    private readonly repo: AuthRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Signed with jsonwebtoken, the library that verifies them (passport-jwt): synchronous
   * node:crypto HMAC, where jose signs through WebCrypto, an asynchronous job per token that costs
   * several times the CPU (docs/performance.md, issue 17).
   */
  async sessionToken(userId: string, tenantId: string, sessionId: string): Promise<string> {
    const now = this.clock.nowSeconds();
    return jwt.sign(
      { tid: tenantId, sid: sessionId, iat: now, exp: now + SESSION_TOKEN_TTL_SECONDS },
      await this.secrets.sessionSigningKey(),
      {
        algorithm: SESSION_ALG,
        subject: userId,
        issuer: SESSION_ISSUER,
        audience: SESSION_AUDIENCE,
      },
    );
  }

  /** A new session: session token plus a refresh token persisted with the caller's manager. */
  async startSession(userId: string, tenantId: string, em?: EntityManager): Promise<SessionResult> {
    const session = this.prepareSession();
    await this.repo.insertRefreshToken(
      { id: session.id, tokenHash: session.tokenHash, userId, tenantId, expiresAt: session.expiresAt, revokedAt: null },
      em,
    );
    return this.issue(userId, tenantId, session);
  }

  /**
   * A session's values before it is stored: its id (the `sid`), refresh token and the stored row's
   * hash and expiry; for a caller that stores the row in a statement of its own (`issue` then).
   */
  prepareSession(): PreparedSession {
    const refreshToken = randomToken('rt');
    return {
      id: randomUUID(),
      refreshToken,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(this.clock.nowMs() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    };
  }

  /** The tokens of a prepared session whose refresh token row is stored. */
  async issue(userId: string, tenantId: string, session: PreparedSession): Promise<SessionResult> {
    return { userId, sessionToken: await this.sessionToken(userId, tenantId, session.id), refreshToken: session.refreshToken };
  }

  /**
   * A new session token for a valid refresh token, in the token's tenant, which must be `tenantId`
   * when the request names one. The refresh token stays valid.
   */
  async refresh(refreshToken: string, tenantId: string | undefined): Promise<{ sessionToken: string }> {
    const row = await this.repo.refreshTokenByHash(sha256Hex(refreshToken));
    if (!row || (tenantId !== undefined && row.tenantId !== tenantId) || row.revokedAt) {
      throw new DomainError(AuthErrors.refresh_token_invalid, 'Invalid refresh token');
    }
    if (row.expiresAt.getTime() <= this.clock.nowMs()) {
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
    const { revoked, notice } = await this.dataSource.transaction(async (em) => {
      const sessions = await this.repo.revokeRefreshTokens(
        userId,
        this.clock.now(),
        refreshToken === undefined ? undefined : sha256Hex(refreshToken),
        em,
      );
      return { revoked: sessions.length, notice: await this.revocations.endSessions(em, sessions) };
    });
    // This instance refuses them at once; its own NOTIFY comes back too (adding twice is harmless).
    this.revocations.apply(notice);
    return revoked;
  }
}
