import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { decodeJwt } from 'jose';
import { LRUCache } from 'lru-cache';
import { upTo } from '../common/cache/up-to.js';
import { type TenantClues, TenantsService } from '../tenants/tenants.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { AUTH_MODE_KEY, type AuthMode, TENANT_FROM_CREDENTIAL_KEY } from '../common/auth/auth.decorators.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import type { AuthenticatedRequest, AuthUser } from '../common/auth/request-context.js';
import { URL_CREDENTIAL_KEY, UrlCredentials } from './url-credentials.js';
import { assertSessionLive } from './jwt.strategy.js';
import { SessionRevocations } from './session-revocations.js';
import { idOf } from '../common/validation/uuid.js';

const header = (req: AuthenticatedRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The tenant a session token names, read without verifying it: on a public route the token is a
 * hint of the same weight as `X-Tenant-Id` (public data of any tenant can be asked for with the
 * header alike), no user is derived from it, and an expired token still names its tenant (a client
 * refreshing its session sends the expired one). Verifying it here made every public read with a
 * session pay for passport (docs/performance.md). Routes that need a session verify it in full.
 */
function sessionTenantHint(req: AuthenticatedRequest): string | undefined {
  const token = bearerToken(req);
  if (token === undefined) return undefined;
  if (token.length > HINT_TOKEN_MAX) return tenantOf(token);
  let hint = hints.get(token);
  if (!hint) hints.set(token, (hint = { tid: tenantOf(token) }));
  return hint.tid;
}

/**
 * The hints of recent tokens (a client sends the same token for its whole session): decoding one
 * at every request showed in a public read's profile. Bounded by count and by token length,
 * so tokens made up to fill it cost at most HINT_TOKENS × HINT_TOKEN_MAX characters.
 */
const HINT_TOKENS = 5_000;
const HINT_TOKEN_MAX = 2_048;
const hints = new LRUCache<string, { tid: string | undefined }>(upTo(HINT_TOKENS));

function bearerToken(req: AuthenticatedRequest): string | undefined {
  const auth = header(req, 'authorization');
  return auth && /^bearer\s/i.test(auth) ? auth.slice(7).trim() : undefined;
}

/**
 * Session tokens passport-jwt verified lately (signature, algorithm, issuer, audience), with their
 * user and expiry: a client sends the same token for its whole session, and verifying it again
 * (passport, jsonwebtoken's HMAC and JSON parsing) was a large share of a small authenticated
 * read's CPU (docs/performance.md). A hit still checks the expiry and the revocations on every
 * request, as the strategy does; the signing key does not change while the process runs. The kept
 * user is frozen: requests share it. Bounded like the hints.
 */
const verified = new LRUCache<string, { user: AuthUser; expMs: number }>(upTo(HINT_TOKENS));

function expiryOf(token: string): number | undefined {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function tenantOf(token: string): string | undefined {
  try {
    const tid = decodeJwt(token).tid;
    return (typeof tid === 'string' && idOf(tid)) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A request's tenant clues. A class rather than an object literal with a getter, which V8 builds
 * on a slow path at every request.
 */
class RequestTenantClues implements TenantClues {
  constructor(
    private readonly req: AuthenticatedRequest,
    readonly session: string | undefined,
    readonly header: string | undefined,
    readonly path: string | undefined,
  ) {}

  /** Read only when no clue before it names the tenant: Express parses it from the headers at each read. */
  get host(): string | undefined {
    return this.req.hostname;
  }
}

/**
 * The one global guard. Every route is `user` (session token) unless it says otherwise with
 * `@Public()`, `@ApiKeyAuth()` or `@Infrastructure()`. It also fixes the tenant of the request,
 * so no handler can run in a tenant its credentials do not belong to: an API key's tenant, or
 * else `TenantsService.resolveForRequest` (session, X-Tenant-Id, host domain, DEFAULT_TENANT, the
 * only tenant).
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: TenantsService,
    private readonly urlCredentials: UrlCredentials,
    private readonly revocations: SessionRevocations,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const mode =
      this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE_KEY, [context.getHandler(), context.getClass()]) ?? 'user';
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    switch (mode) {
      case 'infrastructure':
        return true;
      case 'public':
        try {
          req.tenantId = await this.tenants.resolveForRequest(this.tenantClues(req, sessionTenantHint(req)));
        } catch (err) {
          const named = !(err instanceof DomainError && err.definition === TenantErrors.tenant_required);
          if (named || !this.reflector.get<boolean | undefined>(TENANT_FROM_CREDENTIAL_KEY, context.getHandler())) throw err;
        }
        return true;
      case 'apiKey': {
        const key = header(req, 'x-api-key');
        const tenant = key ? await this.tenants.findByApiKey(key) : null;
        if (!tenant)
          throw key
            ? new DomainError(CommonErrors.api_key_invalid, 'Invalid API key')
            : new DomainError(CommonErrors.api_key_missing, 'Missing X-Api-Key header');
        const tenantRef = header(req, 'x-tenant-id');
        if (tenantRef && tenantRef !== tenant.id && tenantRef !== tenant.slug) {
          throw new DomainError(CommonErrors.tenant_mismatch, 'The API key does not belong to the tenant in X-Tenant-Id');
        }
        req.tenantId = tenant.id;
        req.actor = `api-key:${tenant.apiKeyHash.slice(0, 12)}`;
        return true;
      }
      case 'user': {
        // A route that also takes a single-use credential in its URL (`@AcceptsUrlCredential`), for
        // clients that cannot set headers (a browser's EventSource); the header wins when both come.
        const param = this.reflector.get<string | undefined>(URL_CREDENTIAL_KEY, context.getHandler());
        const value: unknown = param ? (req.query as Record<string, unknown> | undefined)?.[param] : undefined;
        if (param && value !== undefined && !header(req, 'authorization')) req.user = await this.urlCredentials.verify(param, value);
        else await this.verifySession(context, req);
        req.tenantId = await this.tenants.resolveForRequest(this.tenantClues(req, (req.user as AuthUser).tenantId));
        return true;
      }
    }
  }

  /** passport-jwt's verdict on the bearer token, or a recent one of the same token that has not expired. */
  private async verifySession(context: ExecutionContext, req: AuthenticatedRequest): Promise<void> {
    const token = bearerToken(req);
    const cacheable = token !== undefined && token.length <= HINT_TOKEN_MAX;
    const hit = cacheable ? verified.get(token) : undefined;
    if (hit && hit.expMs > Date.now()) {
      assertSessionLive(this.revocations, hit.user);
      req.user = hit.user;
      return;
    }
    await super.canActivate(context);
    const expMs = cacheable ? expiryOf(token) : undefined;
    if (expMs !== undefined) verified.set(token!, { user: Object.freeze(req.user as AuthUser), expMs });
  }

  private tenantClues(req: AuthenticatedRequest, session: string | undefined): TenantClues {
    // A public route may name its tenant in the path (`:tenantId`) for URLs fetched without
    // headers, such as NFT token URIs.
    const path = typeof req.params?.tenantId === 'string' ? req.params.tenantId : undefined;
    return new RequestTenantClues(req, session, header(req, 'x-tenant-id'), path);
  }

  override handleRequest<TUser = AuthUser>(err: unknown, user: TUser | false, info: unknown): TUser {
    if (err instanceof DomainError) throw err;
    if (user) return user;
    const name = (info as { name?: string } | undefined)?.name;
    if (name === 'TokenExpiredError') {
      throw new DomainError(
        CommonErrors.SESSION_TOKEN_EXPIRED,
        'The session token has expired; refresh it with POST /v1/user/auth/refresh-session',
      );
    }
    if (err) throw err instanceof Error ? err : new Error('session token check failed', { cause: err });
    // A failure to obtain the key (e.g. database down) is not the client's fault.
    if (info instanceof Error && !/^(JsonWebTokenError|NotBeforeError)$/.test(info.name) && info.message !== 'No auth token') throw info;
    if (info instanceof Error && info.message === 'No auth token')
      throw new DomainError(CommonErrors.session_token_missing, 'Missing bearer session token');
    throw new DomainError(CommonErrors.session_token_invalid, 'Invalid session token');
  }
}
