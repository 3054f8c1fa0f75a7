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

/** A login attempt counted against an account's limits, to be settled once its credential was checked. */
export interface LoginAttempt {
  /**
   * The credential was right: the attempt is taken back from the counters (only failures count)
   * and the address becomes known to the account.
   */
  succeeded(): Promise<void>;
}

/**
 * Login and registration rate limits, per tenant (configuration defaults, tenant overrides):
 * - per client address, every login route together, every request (high: carrier NAT puts many
 *   players on one);
 * - per account (a username, a provider subject, an address) **and** client address, failures:
 *   guessing from one place is stopped without touching the owner elsewhere;
 * - per account from every address, a much higher ceiling on the failures from addresses that
 *   never logged in to the account: once a distributed guess passes it, only addresses the
 *   account logged in from before may try until the block ends (one window). Known addresses
 *   neither count towards it nor meet it, so strangers cannot lock the owner out from home.
 * An attempt is counted before its credential is checked (so a burst cannot pass the limit
 * while its checks run) and taken back when it succeeded. Counters live in memory, or in Redis
 * when REDIS_URL is set so the limits hold across instances.
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

  /**
   * Counts one attempt on this account from this client address, before its credential is
   * checked; 429 `too_many_requests` over a limit. Settle it with `succeeded()` when the
   * credential was right.
   */
  async hitAccount(tenantId: string, kind: string, account: string, address: string | undefined): Promise<LoginAttempt> {
    const limits = await this.limits(tenantId);
    const acct = hash(tenantId, kind, account.toLowerCase());
    const knownKey = `known:${hash(acct, clientKey(address))}`;
    const ceilingKey = `acct:${acct}`;
    const pairKey = `acct-ip:${hash(acct, clientKey(address))}`;
    const known = await this.store.has(knownKey);
    if (!known) {
      const ceiling = await this.store.increment(ceilingKey, limits.windowMs, limits.perAccount, limits.windowMs);
      if (ceiling.isBlocked)
        throw tooMany(
          `Too many failed logins for this account from new addresses; retry in ${ceiling.timeToBlockExpire} s`,
          ceiling.timeToBlockExpire,
        );
    }
    try {
      await this.hit(pairKey, limits.perAccountAndAddress, limits, 'for this account from this address');
    } catch (e) {
      if (!known) await this.store.refund(ceilingKey);
      throw e;
    }
    return {
      succeeded: async () => {
        await Promise.all([
          this.store.refund(pairKey),
          known ? undefined : this.store.refund(ceilingKey),
          this.store.remember(knownKey, limits.knownClientMs),
        ]);
      },
    };
  }

  private async hit(key: string, limit: number, limits: LoginRateLimits, what: string): Promise<void> {
    const rec = await this.store.increment(key, limits.windowMs, limit, limits.windowMs);
    if (rec.isBlocked) throw tooMany(`Too many login attempts ${what}; retry in ${rec.timeToBlockExpire} s`, rec.timeToBlockExpire);
  }
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError(CommonErrors.too_many_requests, message, { retryAfterSeconds });
