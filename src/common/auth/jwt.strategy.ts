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
      secretOrKeyProvider: (_req: unknown, _raw: string, done: (err: unknown, key?: Buffer) => void) => {
        secrets.sessionKey().then((key) => done(null, key), (err: unknown) => done(err));
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
