import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { loginRateLimits, type LoginRateLimits } from './login-rate-limits.js';
import { RateLimitStore } from './rate-limit-store.js';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Login and registration rate limits: per client IP (every login route together) and per account
 * (a username, a provider subject, an address) whatever IP it comes from. Counters live in memory,
 * or in Redis when REDIS_URL is set so the limits hold across instances.
 */
@Injectable()
export class LoginRateLimiter {
  readonly limits: LoginRateLimits;

  constructor(
    config: AppConfig,
    private readonly store: RateLimitStore,
  ) {
    this.limits = loginRateLimits(config);
  }

  /** Counts one request of this IP; 429 `too_many_requests` over the limit. Returns the seconds to wait when blocked. */
  async hitIp(ip: string): Promise<void> {
    await this.hit(`ip:${hash(ip)}`, this.limits.perIp, 'from this address');
  }

  /** Counts one attempt on this account; 429 `too_many_requests` over the limit. */
  async hitAccount(tenantId: string, kind: string, account: string): Promise<void> {
    await this.hit(`acct:${hash(`${tenantId}\n${kind}\n${account.toLowerCase()}`)}`, this.limits.perAccount, 'for this account');
  }

  private async hit(key: string, limit: number, what: string): Promise<void> {
    const rec = await this.store.increment(key, this.limits.windowMs, limit, this.limits.windowMs);
    if (rec.isBlocked) {
      throw new DomainError(CommonErrors.too_many_requests, `Too many login attempts ${what}; retry in ${rec.timeToBlockExpire} s`, { retryAfterSeconds: rec.timeToBlockExpire });
    }
  }
}
