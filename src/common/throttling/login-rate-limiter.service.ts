import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { loginRateLimits, type LoginRateLimits } from './login-rate-limits.js';

export const ACCOUNT_THROTTLER = 'login-account';

/**
 * The per-account half of the login rate limit: counts attempts for one account (a username, a
 * provider subject, an address) in the throttler storage (memory, or Redis when REDIS_URL is set),
 * whatever IP they come from. Token logins call it once the token names the account.
 */
@Injectable()
export class LoginRateLimiter {
  readonly limits: LoginRateLimits;

  constructor(
    config: AppConfig,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {
    this.limits = loginRateLimits(config);
  }

  /** Counts one attempt; throws 429 `too_many_requests` once the account is over its limit. */
  async hitAccount(tenantId: string, kind: string, account: string): Promise<void> {
    const key = `cgs-login-account:${createHash('sha256').update(`${tenantId}\n${kind}\n${account.toLowerCase()}`).digest('hex')}`;
    const { windowMs, perAccount } = this.limits;
    const rec = await this.storage.increment(key, windowMs, perAccount, windowMs, ACCOUNT_THROTTLER);
    if (rec.isBlocked) {
      throw new DomainError(CommonErrors.too_many_requests, `Too many login attempts for this account; retry in ${rec.timeToBlockExpire} s`, { retryAfterSeconds: rec.timeToBlockExpire });
    }
  }
}
