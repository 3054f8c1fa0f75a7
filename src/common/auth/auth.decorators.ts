import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import type { AuthenticatedRequest, AuthUser } from './request-context.js';

export const AUTH_MODE_KEY = 'cgs:auth-mode';
/**
 * - `public`: no credentials needed; the tenant comes, in this order, from a valid session token
 *   (if one is sent), `X-Tenant-Id`, the host name's domain, DEFAULT_TENANT, the only tenant.
 * - `user`: a session token (`Authorization: Bearer`); the tenant is the token's.
 * - `apiKey`: the tenant's management API key (`X-Api-Key`).
 * - `infrastructure`: health checks; no tenant, no credentials.
 */
export type AuthMode = 'public' | 'user' | 'apiKey' | 'infrastructure';

export const SESSION_SECURITY = 'session';
export const API_KEY_SECURITY = 'api-key';

const tenantHeader = ApiHeader({
  name: 'X-Tenant-Id',
  required: false,
  description:
    'Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: ' +
    "the session token's (when one is sent; this header naming another tenant is then 401), this header, " +
    'the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant.',
});

/** No session needed. The route still runs in a tenant (see `AuthMode`). */
export const Public = () => applyDecorators(SetMetadata(AUTH_MODE_KEY, 'public' satisfies AuthMode), tenantHeader);

/** Requires a valid session token; documents the bearer scheme in Swagger. */
export const Authenticated = () => applyDecorators(SetMetadata(AUTH_MODE_KEY, 'user' satisfies AuthMode), ApiBearerAuth(SESSION_SECURITY));

/** Requires the tenant's management API key in `X-Api-Key`. */
export const ApiKeyAuth = () => applyDecorators(SetMetadata(AUTH_MODE_KEY, 'apiKey' satisfies AuthMode), ApiSecurity(API_KEY_SECURITY));

/** Health and other infrastructure routes: outside tenants and sessions. */
export const Infrastructure = () => SetMetadata(AUTH_MODE_KEY, 'infrastructure' satisfies AuthMode);

/** The user of the session token (only on `@Authenticated()` routes). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new Error('@CurrentUser() used on a route that is not @Authenticated()');
  return user;
});

export const TENANT_FROM_CREDENTIAL_KEY = 'cgs:tenant-from-credential';
/**
 * A public route whose credential (a refresh token) names its own tenant: when nothing else
 * names one, the route runs with none (`OptionalTenantId`) instead of answering 400
 * `tenant_required`, and takes the credential's.
 */
export const TenantFromCredential = () => SetMetadata(TENANT_FROM_CREDENTIAL_KEY, true);

/** The tenant the request names, if any (only on `@TenantFromCredential()` routes can there be none). */
export const OptionalTenantId = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => ctx.switchToHttp().getRequest<AuthenticatedRequest>().tenantId,
);

/** The id of the tenant the request runs in (every route but infrastructure ones). */
export const TenantId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const tenantId = ctx.switchToHttp().getRequest<AuthenticatedRequest>().tenantId;
  if (!tenantId) throw new Error('@TenantId() used on a route without a tenant');
  return tenantId;
});

/** Who calls a management route, as the audit log names them (`api-key:<first 12 hex of the key's hash>`). */
export const Actor = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const actor = ctx.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (!actor) throw new Error('@Actor() used on a route without an API key');
  return actor;
});
