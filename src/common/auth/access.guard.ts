import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { TenantsService } from '../../tenants/tenants.service.js';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { AUTH_MODE_KEY, type AuthMode } from './auth.decorators.js';
import type { AuthenticatedRequest, AuthUser } from './request-context.js';

const header = (req: AuthenticatedRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The one global guard. Every route is `user` (session token) unless it says otherwise with
 * `@Public()`, `@ApiKeyAuth()` or `@Infrastructure()`. It also fixes the tenant of the request,
 * so no handler can run in a tenant its credentials do not belong to.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: TenantsService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const mode = this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE_KEY, [context.getHandler(), context.getClass()]) ?? 'user';
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const tenantRef = header(req, 'x-tenant-id');

    switch (mode) {
      case 'infrastructure':
        return true;
      case 'public': {
        // A public route may name its tenant in the path (`:tenantId`) for URLs fetched without
        // headers, such as NFT token URIs; `X-Tenant-Id` still wins when present.
        const pathTenant = typeof req.params?.tenantId === 'string' ? req.params.tenantId : undefined;
        req.tenantId = (await this.tenants.resolveForRequest(tenantRef ?? pathTenant)).id;
        return true;
      }
      case 'apiKey': {
        const key = header(req, 'x-api-key');
        const tenant = key ? await this.tenants.findByApiKey(key) : null;
        if (!tenant) throw key ? new DomainError(CommonErrors.api_key_invalid, 'Invalid API key') : new DomainError(CommonErrors.api_key_missing, 'Missing X-Api-Key header');
        if (tenantRef && tenantRef !== tenant.id && tenantRef !== tenant.slug) {
          throw new DomainError(CommonErrors.tenant_mismatch, 'The API key does not belong to the tenant in X-Tenant-Id');
        }
        req.tenantId = tenant.id;
        return true;
      }
      case 'user': {
        await super.canActivate(context);
        const user = req.user as AuthUser;
        if (tenantRef) {
          const tenant = await this.tenants.findByRef(tenantRef);
          if (!tenant || tenant.id !== user.tenantId) {
            throw new DomainError(CommonErrors.tenant_mismatch, 'The session token does not belong to the tenant in X-Tenant-Id');
          }
        }
        req.tenantId = user.tenantId;
        return true;
      }
    }
  }

  override handleRequest<TUser = AuthUser>(err: unknown, user: TUser | false, info: unknown): TUser {
    if (err instanceof DomainError) throw err;
    if (user) return user;
    const name = (info as { name?: string } | undefined)?.name;
    if (name === 'TokenExpiredError') {
      throw new DomainError(CommonErrors.SESSION_TOKEN_EXPIRED, 'The session token has expired; refresh it with POST /v1/user/auth/refresh-session');
    }
    if (err) throw err;
    // A failure to obtain the key (e.g. database down) is not the client's fault.
    if (info instanceof Error && !/^(JsonWebTokenError|NotBeforeError)$/.test(info.name) && info.message !== 'No auth token') throw info;
    if (info instanceof Error && info.message === 'No auth token') throw new DomainError(CommonErrors.session_token_missing, 'Missing bearer session token');
    throw new DomainError(CommonErrors.session_token_invalid, 'Invalid session token');
  }
}
