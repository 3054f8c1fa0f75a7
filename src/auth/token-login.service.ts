import { Injectable } from '@nestjs/common';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { decodeJwt } from 'jose';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { LoginRateLimiter } from './throttling/login-rate-limiter.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { SUI_CHAIN, WalletsService, type ZkLoginAccount } from '../wallets/wallets.service.js';
import { AuthErrors } from './auth.errors.js';
import { IdentityLoginService, type IdentityProvider } from './identity-login.service.js';
import { checkCompactJweHeader, decryptCompactJwe, tokenKeyFromSecret, validateLoginClaims, type LoginTokenClaims } from './login-token.js';
import type { Tenant } from '../tenants/entities/tenant.entity.js';
import type { SessionResult } from './session-token.service.js';

export type TokenLoginProvider = 'providerB' | 'providerC';
export type ZkLoginProvider = 'providerA' | 'providerD';

/** Body fields that may override the token's claims. */
export interface TokenLoginBody {
  token: string;
  accessToken?: string;
  referrerHandle?: string;
}

/**
 * Logins with the encrypted OAuth `token` a consuming community's backend issues (spec rule 2):
 * providerB/providerC logins and the providerA/providerD zkLogins.
 */
@Injectable()
export class TokenLoginService {
  /** Token keys by the stored ciphertext of the tenant's shared secret, made once; rotated secrets age out. */
  private readonly tokenKeys = new LRUCache<string, KeyObject>({ max: 1_000 });

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tenants: TenantsService,
    private readonly identities: IdentityLoginService,
    private readonly wallets: WalletsService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  /** Decrypts and validates a `token` of this tenant for the endpoint of `provider`. Never logs it. */
  async readToken(tenantId: string, token: string, provider: TokenLoginProvider | ZkLoginProvider): Promise<LoginTokenClaims> {
    checkCompactJweHeader(token);
    const tenant = await this.tenants.getById(tenantId);
    const plaintext = decryptCompactJwe(token, await this.tokenKey(tenant));
    if (!plaintext) {
      throw new DomainError(
        AuthErrors.login_token_invalid,
        'The token does not decrypt with this tenant shared secret (wrong key, another tenant, or tampered)',
      );
    }
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
    } catch {
      throw new DomainError(AuthErrors.login_token_claims, 'The token payload is not JSON');
    }
    return validateLoginClaims(payload, this.clock.nowSeconds(), this.config.LOGIN_CLOCK_TOLERANCE_SECONDS, provider);
  }

  /**
   * The tenant's token key, kept by its shared secret's stored ciphertext (a rotated secret is
   * another ciphertext): the secret is decrypted once per ciphertext, not at every login.
   */
  private async tokenKey(tenant: Tenant): Promise<KeyObject> {
    let key = this.tokenKeys.get(tenant.sharedSecretEnc);
    if (!key) {
      // tokenKeyFromSecret throws (unusable secret) before anything is cached.
      key = createSecretKey(tokenKeyFromSecret(await this.tenants.sharedSecret(tenant)));
      this.tokenKeys.set(tenant.sharedSecretEnc, key);
    }
    return key;
  }

  /** providerB / providerC login. */
  async tokenLogin(tenantId: string, provider: TokenLoginProvider, body: TokenLoginBody, client: string): Promise<SessionResult> {
    const claims = await this.readToken(tenantId, body.token, provider);
    const attempt = await this.limiter.hitAccount(tenantId, provider, claims.subjectId, client);
    const session = await this.identities.login(this.identityLogin(tenantId, provider, claims, body));
    await attempt.succeeded();
    return session;
  }

  /**
   * providerA / providerD zkLogin: a token login that also creates, on the user's first zkLogin
   * with the provider, a Sui zkLogin wallet from the `idToken` claims (`iss`, `aud`, `sub`) and
   * the identity's derived salt. Primary account login (tenant setting): a later zkLogin of the
   * same user with another provider account is refused, so the wallet address never changes.
   */
  async zkLogin(tenantId: string, provider: ZkLoginProvider, body: TokenLoginBody, client: string): Promise<SessionResult> {
    const claims = await this.readToken(tenantId, body.token, provider);
    const account = zkLoginAccount(claims.idToken);
    const attempt = await this.limiter.hitAccount(tenantId, provider, claims.subjectId, client);
    const tenant = await this.tenants.getById(tenantId);
    const primaryAccountLogin = tenant.settings?.primaryAccountLogin === true;
    let address: string;
    try {
      address = await this.wallets.zkLoginAddress(tenantId, provider, claims.subjectId, account);
    } catch {
      throw new DomainError(
        AuthErrors.id_token_invalid,
        'The idToken claims cannot give a zkLogin address (iss, aud or sub too long or invalid)',
      );
    }
    const session = await this.identities.login({
      ...this.identityLogin(tenantId, provider, claims, body),
      afterUser: async (em, user) => {
        const existing = await this.wallets.find(em, tenantId, user.id, provider, SUI_CHAIN);
        if (existing) {
          const same = existing.claimIss === account.iss && existing.claimAud === account.aud && existing.claimSub === account.sub;
          if (!same && primaryAccountLogin) {
            throw new DomainError(
              AuthErrors.primary_account_required,
              `Log in with the ${provider} account you registered with; this tenant enforces primary account login`,
            );
          }
          return;
        }
        await this.wallets.ensure(em, {
          tenantId,
          userId: user.id,
          provider,
          chain: SUI_CHAIN,
          address,
          claimIss: account.iss,
          claimAud: account.aud,
          claimSub: account.sub,
        });
      },
    });
    await attempt.succeeded();
    return session;
  }

  private identityLogin(tenantId: string, provider: IdentityProvider, claims: LoginTokenClaims, body: TokenLoginBody) {
    return {
      tenantId,
      provider,
      subjectId: claims.subjectId,
      handle: claims.handle,
      // The body's accessToken and referrerHandle, when given, take precedence over the claims.
      tokens: { idToken: claims.idToken, accessToken: body.accessToken ?? claims.accessToken, refreshToken: claims.refreshToken },
      referrerHandle: body.referrerHandle ?? claims.referrerHandle,
      nonce: {
        kind: 'login_token' as const,
        value: claims.nonce,
        expiresAt: new Date((claims.exp + this.config.LOGIN_CLOCK_TOLERANCE_SECONDS) * 1000),
      },
    };
  }
}

/**
 * The OAuth account in a zkLogin `idToken` claim: decoded, not verified (see decisions.md).
 * `aud` may be a one-element array.
 */
export function zkLoginAccount(idToken: string | undefined): ZkLoginAccount {
  if (!idToken) throw new DomainError(AuthErrors.id_token_invalid, 'A zkLogin token needs the idToken claim');
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(idToken);
  } catch {
    throw new DomainError(AuthErrors.id_token_invalid, 'The idToken claim is not a JWT');
  }
  const aud: unknown = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
  const { iss, sub } = claims;
  if (typeof iss !== 'string' || !iss || typeof aud !== 'string' || !aud || typeof sub !== 'string' || !sub) {
    throw new DomainError(AuthErrors.id_token_invalid, 'The idToken must carry string iss, aud (one audience) and sub claims');
  }
  return { iss, aud, sub };
}
