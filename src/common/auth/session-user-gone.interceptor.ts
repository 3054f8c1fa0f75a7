import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { catchError, type Observable, throwError } from 'rxjs';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import type { AuthenticatedRequest } from './request-context.js';

/** `Key (user_id)=(<uuid>) is not present in table "users".`, whatever the referencing column. */
const MISSING_USER = /^Key \([a-z_]+\)=\(([0-9a-f-]{36})\) is not present in table "users"\.$/;

/**
 * A user deleted while their session token is still valid is ended on every instance through the
 * revocation list (SessionRevocations), within the moment its notification takes. A write in that
 * moment fails on a foreign key to the user: that is the session's user gone, a 401, not a 500.
 */
@Injectable()
export class SessionUserGoneInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((e: unknown) => {
        const userId = context.switchToHttp().getRequest<AuthenticatedRequest>()?.user?.id;
        const err = e as { code?: string; detail?: string; driverError?: { code?: string; detail?: string } } | undefined;
        const code = err?.code ?? err?.driverError?.code;
        const detail = err?.detail ?? err?.driverError?.detail;
        if (userId && code === '23503' && typeof detail === 'string' && MISSING_USER.exec(detail)?.[1] === userId) {
          return throwError(() => new DomainError(CommonErrors.GENERIC_UNAUTHORIZED, 'The user of this session no longer exists'));
        }
        return throwError(() => e);
      }),
    );
  }
}
