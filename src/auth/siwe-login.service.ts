import { Injectable } from '@nestjs/common';
import { getAddress, verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { LoginRateLimiter } from './throttling/login-rate-limiter.service.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { evmChain, WalletsService } from '../wallets/wallets.service.js';
import { AuthErrors } from './auth.errors.js';
import { IdentityLoginService } from './identity-login.service.js';
import type { SessionResult } from './session-token.service.js';

/** Chains accepted when the tenant sets no `siweAllowedChainIds`: Ethereum mainnet. */
export const DEFAULT_SIWE_CHAIN_IDS = [1];

/** `scheme://host[:port]` of an origin or URL; null when it is not one. */
function originOf(value: string): URL | null {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/**
 * Sign-In With Ethereum (EIP-4361). The message must name one of the tenant's allowed origins
 * (`domain`, and `scheme` when present, match an origin; the `uri` lies under one), an allowed
 * chain, honour `notBefore`/`expirationTime`, be issued at most SIWE_MAX_AGE_SECONDS ago, carry
 * a nonce never used before in the tenant, and be signed by its address (EOA signatures).
 */
@Injectable()
export class SiweLoginService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tenants: TenantsService,
    private readonly identities: IdentityLoginService,
    private readonly wallets: WalletsService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  async login(
    tenantId: string,
    body: { message: string; signature: string; referrerHandle?: string },
    client: string,
  ): Promise<SessionResult> {
    let msg: SiweMessage;
    try {
      msg = new SiweMessage(body.message);
    } catch {
      throw new DomainError(AuthErrors.siwe_message_malformed, 'The message is not a valid EIP-4361 (SIWE) message');
    }
    const tenant = await this.tenants.getById(tenantId);
    this.checkOrigin(msg, tenant.settings?.siweAllowedOrigins);
    const chains =
      Array.isArray(tenant.settings?.siweAllowedChainIds) && tenant.settings.siweAllowedChainIds.length > 0
        ? tenant.settings.siweAllowedChainIds
        : DEFAULT_SIWE_CHAIN_IDS;
    if (!chains.includes(msg.chainId))
      throw new DomainError(AuthErrors.siwe_chain_not_allowed, `Chain ${msg.chainId} is not allowed in this tenant`);
    const issuedAt = this.checkTimes(msg);

    const address = getAddress(msg.address);
    const attempt = await this.limiter.hitAccount(tenantId, 'siwe', address, client);
    let signer: string;
    try {
      signer = verifyMessage(body.message, body.signature);
    } catch {
      throw new DomainError(AuthErrors.siwe_signature_invalid, 'The signature is malformed');
    }
    if (signer !== address) throw new DomainError(AuthErrors.siwe_signature_invalid, 'The message was not signed by its address');

    const tolerance = this.config.LOGIN_CLOCK_TOLERANCE_SECONDS;
    const session = await this.identities.login({
      tenantId,
      provider: 'siwe',
      subjectId: address,
      handle: address.slice(0, 10),
      referrerHandle: body.referrerHandle,
      // The nonce stays used as long as a message carrying it could be accepted.
      nonce: { kind: 'siwe', value: msg.nonce, expiresAt: new Date(issuedAt + (this.config.SIWE_MAX_AGE_SECONDS + 2 * tolerance) * 1000) },
      afterUser: async (em, user) => {
        await this.wallets.ensure(em, { tenantId, userId: user.id, provider: 'siwe', chain: evmChain(msg.chainId), address });
      },
    });
    await attempt.succeeded();
    return session;
  }

  private checkOrigin(msg: SiweMessage, allowed: unknown): void {
    const origins = (Array.isArray(allowed) ? allowed : [])
      .filter((o): o is string => typeof o === 'string')
      .map(originOf)
      .filter((u): u is URL => u !== null);
    if (origins.length === 0)
      throw new DomainError(AuthErrors.siwe_domain_not_allowed, 'This tenant allows no SIWE origin (settings.siweAllowedOrigins)');
    const domainOk = origins.some((o) => o.host === msg.domain.toLowerCase() && (!msg.scheme || `${msg.scheme}:` === o.protocol));
    if (!domainOk)
      throw new DomainError(AuthErrors.siwe_domain_not_allowed, `The message domain ${msg.domain} is not an allowed origin of this tenant`);
    const uri = originOf(msg.uri);
    if (!uri || !origins.some((o) => o.origin === uri.origin))
      throw new DomainError(AuthErrors.siwe_domain_not_allowed, 'The message URI is not under an allowed origin of this tenant');
  }

  /** Returns `issuedAt` in ms. */
  private checkTimes(msg: SiweMessage): number {
    const now = this.clock.nowMs();
    const tol = this.config.LOGIN_CLOCK_TOLERANCE_SECONDS * 1000;
    const time = (v: string | undefined) => (v === undefined ? undefined : Date.parse(v));
    const issuedAt = time(msg.issuedAt);
    const notBefore = time(msg.notBefore);
    const expiration = time(msg.expirationTime);
    if (issuedAt === undefined || Number.isNaN(issuedAt) || Number.isNaN(notBefore) || Number.isNaN(expiration)) {
      throw new DomainError(AuthErrors.siwe_message_malformed, 'The message times are not ISO 8601');
    }
    if (expiration !== undefined && expiration <= now - tol)
      throw new DomainError(AuthErrors.siwe_message_expired, 'The message has expired (expirationTime)');
    if (issuedAt < now - this.config.SIWE_MAX_AGE_SECONDS * 1000 - tol) {
      throw new DomainError(
        AuthErrors.siwe_message_expired,
        `The message was issued more than ${this.config.SIWE_MAX_AGE_SECONDS} s ago; sign a new one`,
      );
    }
    if (issuedAt > now + tol) throw new DomainError(AuthErrors.siwe_message_not_yet_valid, 'The message issuedAt is in the future');
    if (notBefore !== undefined && notBefore > now + tol)
      throw new DomainError(AuthErrors.siwe_message_not_yet_valid, 'The message is not valid yet (notBefore)');
    return issuedAt;
  }
}
