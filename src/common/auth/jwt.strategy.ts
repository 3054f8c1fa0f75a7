import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { SecretsService } from '../crypto/secrets.service.js';
import type { AuthUser } from './request-context.js';
import { SESSION_ALG, SESSION_AUDIENCE, SESSION_ISSUER } from './session.constants.js';

interface SessionClaims { sub?: unknown; tid?: unknown }

/** Verifies `Authorization: Bearer <session token>` (signature, issuer, audience, expiry). */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(secrets: SecretsService) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the Buffer: given a Buffer, jsonwebtoken first tries to parse it as a
      // public key (createPublicKey throws) on every request: 23 % of the service's CPU on
      // authenticated routes (docs/performance.md).
      secretOrKeyProvider: (_req: unknown, _raw: string, done: (err: unknown, key?: Buffer) => void) => {
        secrets.sessionKeys().then((keys) => done(null, keys.verify as unknown as Buffer), (err: unknown) => done(err));
      },
      algorithms: [SESSION_ALG],
      issuer: SESSION_ISSUER,
      audience: SESSION_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(payload: SessionClaims): AuthUser | false {
    if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string') return false;
    return { id: payload.sub, tenantId: payload.tid };
  }
}
