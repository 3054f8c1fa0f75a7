import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { SecretsService } from '../crypto/secrets.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { SessionRevocations } from './session-revocations.js';
import { SESSION_ALG, SESSION_AUDIENCE, SESSION_ISSUER } from './session.constants.js';

interface SessionClaims {
  sub?: unknown;
  tid?: unknown;
  sid?: unknown;
}

/**
 * Verifies `Authorization: Bearer <session token>` (signature, issuer, audience, expiry) and that
 * its session has not ended (logout, deleted user): a lookup in memory, no database read.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    secrets: SecretsService,
    private readonly revocations: SessionRevocations,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the Buffer: given a Buffer, jsonwebtoken first tries to parse it as a
      // public key (createPublicKey throws) on every request, a large share of the CPU of
      // authenticated routes (docs/performance.md).
      secretOrKeyProvider: (_req: unknown, _raw: string, done: (err: unknown, key?: Buffer) => void) => {
        secrets.sessionSigningKey().then(
          (key) => done(null, key as unknown as Buffer),
          (err: unknown) => done(err),
        );
      },
      algorithms: [SESSION_ALG],
      issuer: SESSION_ISSUER,
      audience: SESSION_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(payload: SessionClaims): AuthUser | false {
    if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string') return false;
    if (payload.sid !== undefined && typeof payload.sid !== 'string') return false;
    const user: AuthUser =
      payload.sid === undefined
        ? { id: payload.sub, tenantId: payload.tid }
        : { id: payload.sub, tenantId: payload.tid, sessionId: payload.sid };
    assertSessionLive(this.revocations, user);
    return user;
  }
}

/** Throws `session_ended` when the user's session was ended (logout, deleted user). */
export function assertSessionLive(revocations: SessionRevocations, user: AuthUser): void {
  if (revocations.isRevoked(user.id, user.sessionId)) {
    throw new DomainError(CommonErrors.session_ended, 'The session has ended (logged out, or its user no longer exists); log in again');
  }
}
