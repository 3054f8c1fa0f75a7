import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { sha256Hex } from '../../crypto/hashing.js';
import { TenantsService } from '../../tenants/tenants.service.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CommonErrors } from '../../common/errors/error-catalog.js';
import { clientKey } from './client-address.js';
import { loginRateLimits, type LoginRateLimits } from '../../common/throttling/login-rate-limits.js';
import { RateLimitStore } from './rate-limit-store.js';

const hash = (...parts: string[]) => sha256Hex(parts.join('\n'));

/**
 * Login and registration rate limits, per tenant (configuration defaults, tenant overrides):
 * - per client address, every login route together (high: carrier NAT puts many players on one);
 * - per account (a username, a provider subject, an address) **and** client address: guessing from
 *   one place is stopped without touching the owner elsewhere;
 * - per account from every address, a much higher ceiling: once a distributed guess passes it, only
 *   addresses the account logged in from before may try until the block ends (one window).
 * Counters live in memory, or in Redis when REDIS_URL is set so the limits hold across instances.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly config: AppConfig,
    private readonly tenants: TenantsService,
    private readonly store: RateLimitStore,
  ) {}

  /** The limits of this tenant. */
  async limits(tenantId: string): Promise<LoginRateLimits> {
    const tenant = await this.tenants.findByRef(tenantId);
    return loginRateLimits(this.config, tenant?.settings?.loginRateLimits);
  }

  /** Counts one request of this client address; 429 `too_many_requests` over the limit. */
  async hitAddress(tenantId: string, address: string | undefined): Promise<void> {
    const limits = await this.limits(tenantId);
    await this.hit(`ip:${hash(tenantId, clientKey(address))}`, limits.perAddress, limits, 'from this address');
  }

  /** Counts one attempt on this account from this client address; 429 `too_many_requests` over a limit. */
  async hitAccount(tenantId: string, kind: string, account: string, address: string | undefined): Promise<void> {
    const limits = await this.limits(tenantId);
    const acct = hash(tenantId, kind, account.toLowerCase());
    const client = clientKey(address);
    const ceiling = await this.store.increment(`acct:${acct}`, limits.windowMs, limits.perAccount, limits.windowMs);
    if (ceiling.isBlocked && !(await this.store.has(`known:${hash(acct, client)}`))) {
      throw tooMany(
        `Too many login attempts for this account from new addresses; retry in ${ceiling.timeToBlockExpire} s`,
        ceiling.timeToBlockExpire,
      );
    }
    await this.hit(`acct-ip:${hash(acct, client)}`, limits.perAccountAndAddress, limits, 'for this account from this address');
  }

  /** A login of this account from this address succeeded: the address becomes known to the account. */
  async succeeded(tenantId: string, kind: string, account: string, address: string | undefined): Promise<void> {
    const limits = await this.limits(tenantId);
    await this.store.remember(`known:${hash(hash(tenantId, kind, account.toLowerCase()), clientKey(address))}`, limits.knownClientMs);
  }

  private async hit(key: string, limit: number, limits: LoginRateLimits, what: string): Promise<void> {
    const rec = await this.store.increment(key, limits.windowMs, limit, limits.windowMs);
    if (rec.isBlocked) throw tooMany(`Too many login attempts ${what}; retry in ${rec.timeToBlockExpire} s`, rec.timeToBlockExpire);
  }
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError(CommonErrors.too_many_requests, message, { retryAfterSeconds });
