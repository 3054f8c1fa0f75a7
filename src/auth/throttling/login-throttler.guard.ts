import {
  applyDecorators,
  type CallHandler,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { Response } from 'express';
import { catchError, type Observable, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/auth/request-context.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { LoginRateLimiter } from './login-rate-limiter.service.js';

/**
 * Rate limit of a login or registration route: per client address here (the guard), per account
 * and address in the service once it knows the account (`LoginRateLimiter.hitAccount`, with the
 * address from `@ClientAddress()`). Runs after the global AccessGuard (the tenant is known).
 * Over a limit: 429 `too_many_requests` with `Retry-After`.
 */
export const LoginRateLimit = () => applyDecorators(UseGuards(LoginThrottlerGuard), UseInterceptors(RetryAfterInterceptor));

/**
 * The client's address: `req.ip`, which is the socket address unless TRUST_PROXY names the proxies
 * whose `X-Forwarded-For` is believed (src/app.setup.ts).
 */
export const ClientAddress = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  clientAddressOf(ctx.switchToHttp().getRequest<AuthenticatedRequest>()),
);

const clientAddressOf = (req: AuthenticatedRequest): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

const setRetryAfter = (context: ExecutionContext, e: unknown) => {
  const retry = e instanceof DomainError ? e.details?.retryAfterSeconds : undefined;
  if (typeof retry === 'number') context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retry));
};

@Injectable()
export class LoginThrottlerGuard implements CanActivate {
  constructor(private readonly limiter: LoginRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    try {
      await this.limiter.hitAddress(req.tenantId ?? '-', clientAddressOf(req));
    } catch (e) {
      setRetryAfter(context, e);
      throw e;
    }
    return true;
  }
}

/** `Retry-After` on the 429s the login services throw (per account and address, per account). */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((e: unknown) => {
        setRetryAfter(context, e);
        return throwError(() => e);
      }),
    );
  }
}
