import { Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { LoginRateLimiter } from './throttling/login-rate-limiter.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { AuthErrors } from './auth.errors.js';
import { IdentityLoginService } from './identity-login.service.js';
import type { SessionResult } from './session-token.service.js';

/** Asymmetric algorithms OpenID providers sign ID tokens with; HS* and `none` are refused. */
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

class JwksFetchFailed extends Error {}

/**
 * providerA credential login: the credential is providerA's OpenID Connect ID token, verified
 * against its JWKS (PROVIDER_A_JWKS_URL, cached 10 minutes, refetched on an unknown `kid` for key
 * rotation), with `iss` = PROVIDER_A_ISSUER, `aud` = the tenant's `providerAClientId`, `exp`.
 */
@Injectable()
export class ProviderACredentialService {
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tenants: TenantsService,
    private readonly identities: IdentityLoginService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  private keySet(url: string) {
    const jwks = (this.jwks ??= createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.config.PROVIDER_A_JWKS_COOLDOWN_SECONDS * 1000,
      cacheMaxAge: 10 * 60 * 1000,
      timeoutDuration: 5000,
    }));
    return async (...args: Parameters<typeof jwks>) => {
      try {
        return await jwks(...args);
      } catch (e) {
        if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys || e instanceof errors.JOSENotSupported)
          throw e;
        throw new JwksFetchFailed();
      }
    };
  }

  async verify(tenantId: string, credential: string): Promise<JWTPayload & { sub: string }> {
    const { PROVIDER_A_JWKS_URL: url, PROVIDER_A_ISSUER: issuer } = this.config;
    const clientId = (await this.tenants.getById(tenantId)).settings?.providerAClientId;
    if (!url || !issuer)
      throw new DomainError(
        AuthErrors.provider_not_configured,
        'providerA credential login is not configured on this service (PROVIDER_A_JWKS_URL, PROVIDER_A_ISSUER)',
      );
    if (typeof clientId !== 'string' || !clientId)
      throw new DomainError(
        AuthErrors.provider_not_configured,
        'providerA credential login is not configured for this tenant (settings.providerAClientId)',
      );
    try {
      const { payload } = await jwtVerify(credential, this.keySet(url), {
        issuer,
        audience: clientId,
        algorithms: ID_TOKEN_ALGORITHMS,
        currentDate: this.clock.now(),
        clockTolerance: this.config.LOGIN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      if (typeof payload.sub !== 'string' || !payload.sub || payload.sub.length > 255)
        throw new DomainError(AuthErrors.credential_invalid, 'The credential has no usable sub claim');
      return payload as JWTPayload & { sub: string };
    } catch (e) {
      if (e instanceof DomainError) throw e;
      if (e instanceof JwksFetchFailed)
        throw new DomainError(AuthErrors.jwks_unavailable, 'The providerA key set could not be fetched; retry later');
      if (e instanceof errors.JWTExpired) throw new DomainError(AuthErrors.credential_expired, 'The providerA credential has expired');
      if (e instanceof errors.JWKSNoMatchingKey)
        throw new DomainError(
          AuthErrors.credential_invalid,
          'The credential is signed with a key providerA does not publish (unknown kid)',
        );
      if (e instanceof errors.JWTClaimValidationFailed)
        throw new DomainError(AuthErrors.credential_invalid, `The credential ${e.claim} claim is not acceptable (${e.reason})`);
      throw new DomainError(AuthErrors.credential_invalid, 'The credential is not a valid providerA ID token');
    }
  }

  async login(tenantId: string, body: { credential: string; referrerHandle?: string }, client: string): Promise<SessionResult> {
    const claims = await this.verify(tenantId, body.credential);
    const attempt = await this.limiter.hitAccount(tenantId, 'providerA', claims.sub, client);
    const session = await this.identities.login({
      tenantId,
      provider: 'providerA',
      subjectId: claims.sub,
      handle: handleFromClaims(claims),
      tokens: { idToken: body.credential },
      referrerHandle: body.referrerHandle,
    });
    await attempt.succeeded();
    return session;
  }
}

/** A handle from the usual OpenID profile claims, else `user`. */
export function handleFromClaims(c: JWTPayload): string {
  for (const v of [
    c.preferred_username,
    c.nickname,
    c.given_name,
    c.name,
    typeof c.email === 'string' ? c.email.split('@')[0] : undefined,
  ]) {
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return 'user';
}
