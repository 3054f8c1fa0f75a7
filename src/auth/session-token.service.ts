import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SignJWT } from 'jose';
import { EntityManager, Repository } from 'typeorm';
import { SESSION_ALG, SESSION_AUDIENCE, SESSION_ISSUER, SESSION_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../common/auth/session.constants.js';
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

/** Issues session tokens (signed JWTs) and refresh tokens (opaque, stored hashed). */
@Injectable()
export class SessionTokenService {
  constructor(
    private readonly secrets: SecretsService,
    private readonly clock: Clock,
    @InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>,
  ) {}

  async sessionToken(userId: string, tenantId: string): Promise<string> {
    const now = this.clock.nowSeconds();
    return new SignJWT({ tid: tenantId })
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
    await em.insert(RefreshToken, {
      tokenHash: sha256Hex(refreshToken),
      userId,
      tenantId,
      expiresAt: new Date(this.clock.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      revokedAt: null,
    });
    return { userId, sessionToken: await this.sessionToken(userId, tenantId), refreshToken };
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
    return { sessionToken: await this.sessionToken(row.userId, row.tenantId) };
  }

  /** Revokes one refresh token of the user, or all of them. Returns how many were revoked. */
  async revoke(userId: string, refreshToken?: string): Promise<number> {
    const qb = this.refreshTokens
      .createQueryBuilder()
      .update()
      .set({ revokedAt: this.clock.now() })
      .where('user_id = :userId AND revoked_at IS NULL', { userId });
    if (refreshToken !== undefined) qb.andWhere('token_hash = :hash', { hash: sha256Hex(refreshToken) });
    const res = await qb.execute();
    return res.affected ?? 0;
  }
}
