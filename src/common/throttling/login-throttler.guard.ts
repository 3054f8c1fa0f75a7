import { type ExecutionContext, Injectable, SetMetadata, UseGuards, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import type { AuthenticatedRequest } from '../auth/request-context.js';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { LoginRateLimiter } from './login-rate-limiter.service.js';

const ACCOUNT_FIELD = 'cgs:login-account-field';

/**
 * Rate limit of login and registration routes: per client IP (all such routes together, the
 * `login-ip` throttler) and, when `accountField` names a body field (e.g. `username`), per account.
 * Runs after the global AccessGuard, so the tenant is known. 429 `too_many_requests` with Retry-After.
 */
export const LoginRateLimit = (accountField?: string) =>
  applyDecorators(SetMetadata(ACCOUNT_FIELD, accountField), UseGuards(LoginThrottlerGuard));

@Injectable()
export class LoginThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    private readonly reflectorRef: Reflector,
    private readonly limiter: LoginRateLimiter,
  ) {
    super(options, storage, reflectorRef);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const ok = await super.canActivate(context);
    const field = this.reflectorRef.get<string | undefined>(ACCOUNT_FIELD, context.getHandler());
    if (field) {
      const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
      const value = (req.body as Record<string, unknown> | undefined)?.[field];
      if (typeof value === 'string' && value !== '') await this.limiter.hitAccount(req.tenantId ?? '-', field, value.slice(0, 256));
    }
    return ok;
  }

  /** One counter per IP for every login route together. */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `cgs-${name}:${createHash('sha256').update(tracker).digest('hex')}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(detail.timeToBlockExpire));
    throw new DomainError(CommonErrors.too_many_requests, `Too many login attempts from this address; retry in ${detail.timeToBlockExpire} s`, { retryAfterSeconds: detail.timeToBlockExpire });
  }
}
