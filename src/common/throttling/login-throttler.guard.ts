import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/request-context.js';
import { DomainError } from '../errors/domain-error.js';
import { LoginRateLimiter } from './login-rate-limiter.service.js';

const ACCOUNT_FIELD = 'cgs:login-account-field';

/**
 * Rate limit of a login or registration route: per client IP and, when `accountField` names a
 * body field (e.g. `username`), per account. Token logins count their account in the service
 * once the token names it. Runs after the global AccessGuard (the tenant is known).
 * Over the limit: 429 `too_many_requests` with `Retry-After`.
 */
export const LoginRateLimit = (accountField?: string) => applyDecorators(SetMetadata(ACCOUNT_FIELD, accountField), UseGuards(LoginThrottlerGuard));

@Injectable()
export class LoginThrottlerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: LoginRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    try {
      await this.limiter.hitIp(req.ip ?? req.socket.remoteAddress ?? 'unknown');
      const field = this.reflector.get<string | undefined>(ACCOUNT_FIELD, context.getHandler());
      const value = field ? (req.body as Record<string, unknown> | undefined)?.[field] : undefined;
      if (field && typeof value === 'string' && value !== '') await this.limiter.hitAccount(req.tenantId ?? '-', field, value.slice(0, 256));
    } catch (e) {
      const retry = e instanceof DomainError ? e.details?.retryAfterSeconds : undefined;
      if (retry !== undefined) context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retry));
      throw e;
    }
    return true;
  }
}
