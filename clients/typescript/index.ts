/**
 * The typed client of the Community Gaming Service (package `@community-gaming/client`, README.md
 * beside this file), generated from `openapi.json` (`npm run openapi` regenerates `schema.d.ts`
 * and `contract.ts`). Built on openapi-fetch:
 *
 *   const api = createCgsClient({ baseUrl: 'http://localhost:3000', tenantId: 'demo', onTokens: save });
 *   await api.POST('/v1/user/auth/password/login', { body: { username, password } }); // keeps the session
 *   const event = await orThrow(api.GET('/v1/quest-event/{eventId}', { params: { path: { eventId } } }));
 *
 * It does the client's part of the interface: a login's tokens are kept (and handed to `onTokens`
 * to store), a request refused with `SESSION_TOKEN_EXPIRED` is sent again after one refresh (one
 * refresh in flight however many requests were refused), a refresh refused ends the session
 * (`onTokens(null)`: log in again). The management API (`/v1/admin/...`) takes the tenant's API
 * key instead: `createCgsClient({ baseUrl, apiKey })`.
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { EventSource, type FetchLike } from 'eventsource';
import type { components, paths } from './schema.js';
import { CONTRACT, ERRORS, type CgsErrorCode, type CgsErrorIdentifier } from './contract.js';

export type { components, operations, paths } from './schema.js';
export { CONTRACT, ERRORS, type CgsErrorCode, type CgsErrorIdentifier };

/** The two tokens of a session: the session token (10 minutes) and the refresh token (30 days). */
export interface SessionTokens {
  sessionToken: string;
  refreshToken?: string;
}

export interface CgsClientOptions extends ClientOptions {
  /** Tenant id or slug, sent as `X-Tenant-Id` (optional with a single-tenant deployment). */
  tenantId?: string;
  /** A session to start with (e.g. the one `onTokens` stored last time). */
  tokens?: SessionTokens;
  /** @deprecated `tokens: { sessionToken }`. */
  sessionToken?: string;
  /** The tenant's management API key, sent as `X-Api-Key` (the `/v1/admin` routes). */
  apiKey?: string;
  /**
   * Called whenever the session changes: new tokens after a login, a registration or a refresh;
   * `null` after a logout or when the refresh token is refused (log in again). Store them here
   * (the client keeps them in memory only).
   */
  onTokens?: (tokens: SessionTokens | null) => void | Promise<void>;
}

export type ErrorBody = components['schemas']['ErrorBodyDto'];

/** An error answer of the service, as thrown by `orThrow`. */
export class CgsApiError extends Error {
  readonly status: number;
  /** The interface's identifier (`generic_client_error`, `GENERIC_UNAUTHORIZED`, ...): compare this. */
  readonly identifier: CgsErrorIdentifier;
  /** The precise case (`event_full`, `validation_failed`, ...). */
  readonly code: CgsErrorCode;
  /** For people; its wording may change. */
  readonly detail: string;
  readonly requestId?: string;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.error}: ${body.detail}`);
    this.name = 'CgsApiError';
    this.status = status;
    this.identifier = body.message as CgsErrorIdentifier;
    this.code = body.error as CgsErrorCode;
    this.detail = body.detail;
    this.requestId = body.requestId;
    this.body = body;
  }
}

/** The data of a call, or its error thrown as a `CgsApiError`. */
export async function orThrow<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const body = isErrorBody(error)
      ? error
      : { code: 0, message: 'internal_error', error: 'internal_error', detail: `HTTP ${response.status} without an error body` };
    throw new CgsApiError(response.status, body);
  }
  return data as T;
}

const isErrorBody = (v: unknown): v is ErrorBody =>
  typeof v === 'object' && v !== null && typeof (v as ErrorBody).message === 'string' && typeof (v as ErrorBody).error === 'string';

export type Notification = components['schemas']['NotificationDto'];

export interface StreamHandlers {
  onNotification(notification: Notification): void;
  /** The stream is live; `replayed` notifications missed while away were delivered before it. */
  onReady?(info: { replayed: number }): void;
  /** More were missed than the stream replays: reload `GET /v1/user/notifications`. */
  onReset?(info: { reason: string; limit: number }): void;
  /** The session ended (logout elsewhere, user deleted, refresh refused): the stream is closed. */
  onSessionEnded?(): void;
  /** A connection failed; the stream reconnects by itself unless it was closed. */
  onError?(error: Error): void;
}

export interface NotificationStream {
  /** The id of the last event received (pass it as `lastEventId` to resume elsewhere). */
  readonly lastEventId: string | undefined;
  close(): void;
}

export type CgsClient = Client<paths> & {
  /** Replaces the session (e.g. one stored earlier); `undefined` forgets it. */
  setSessionToken(token: string | undefined, refreshToken?: string): void;
  /** The current session, if any. */
  readonly tokens: SessionTokens | undefined;
  /**
   * Opens the live notification stream (SSE) with the session's token: reconnects by itself
   * (resuming after the last event received), refreshes the session when its token expired.
   */
  streamNotifications(handlers: StreamHandlers, options?: { lastEventId?: string }): NotificationStream;
};

/** Routes whose 2xx answer carries a new session (every login, the registration, the refresh). */
const SESSION_ROUTES = /^\/v1\/user\/(auth\/[^/]+\/(login|zklogin)|auth\/refresh-session|register\/password)$/;

/**
 * Query strings as the service reads them. openapi-fetch's own serializer throws on an array inside
 * a deepObject parameter (`filter.status`) and drops an empty array, which leaves out a required
 * parameter such as `questTypes`. Here: an array repeats its name (`tags=a&tags=b`), an empty array
 * is sent empty (`tags=`, the interface's "no filter"), an object is a deepObject
 * (`filter[status]=active&filter[containerId]=x`) whose empty arrays are left out, and
 * `undefined`/`null` are left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    out.append(
      name,
      typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value),
    );
  };
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.append(name, '');
      for (const v of value) add(name, v);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        for (const v of Array.isArray(inner) ? inner : [inner]) add(`${name}[${key}]`, v);
      }
    } else add(name, value);
  }
  return out.toString();
}

export function createCgsClient(options: CgsClientOptions): CgsClient {
  const { tenantId, tokens: initial, sessionToken, apiKey, onTokens, ...rest } = options;
  const baseUrl = (rest.baseUrl ?? '').replace(/\/+$/, '');
  const send: (request: Request) => Promise<Response> = rest.fetch ?? ((request) => globalThis.fetch(request));
  let session: SessionTokens | undefined = initial ?? (sessionToken ? { sessionToken } : undefined);
  /** The refresh in flight, shared by every request refused meanwhile. */
  let refreshing: Promise<boolean> | undefined;
  /** Copies of requests sent with the session's token, to send again after a refresh. */
  const sent = new Map<string, Request>();

  const setSession = async (next: SessionTokens | undefined) => {
    session = next;
    await onTokens?.(next ?? null);
  };

  /**
   * Refreshes the session whose token `stale` was refused, once: a request refused with a token
   * already replaced just uses the new one; refusals meanwhile wait for the same refresh.
   */
  const refreshAfter = (stale: string): Promise<boolean> => {
    if (session && session.sessionToken !== stale) return Promise.resolve(true);
    refreshing ??= (async () => {
      const refreshToken = session?.refreshToken;
      if (!refreshToken) return false;
      const res = await send(
        new Request(`${baseUrl}/v1/user/auth/refresh-session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(tenantId ? { 'X-Tenant-Id': tenantId } : {}) },
          body: JSON.stringify({ refreshToken }),
        }),
      );
      if (res.ok) {
        const { sessionToken: fresh } = (await res.json()) as { sessionToken: string };
        await setSession({ sessionToken: fresh, refreshToken });
        return true;
      }
      // Refused (expired, revoked): the session is over. Anything else (503, a network error
      // above) leaves it as it was, for the next request to try again.
      if (res.status === 401) await setSession(undefined);
      return false;
    })().finally(() => (refreshing = undefined));
    return refreshing;
  };

  const expiredToken = async (response: Response): Promise<boolean> => {
    if (response.status !== 401) return false;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    return isErrorBody(body) && body.message === 'SESSION_TOKEN_EXPIRED';
  };

  const client = createClient<paths>({ querySerializer: serializeQuery, ...rest, fetch: send });
  const middleware: Middleware = {
    onRequest({ request, id }) {
      if (tenantId && !request.headers.has('X-Tenant-Id')) request.headers.set('X-Tenant-Id', tenantId);
      if (apiKey && !request.headers.has('X-Api-Key')) request.headers.set('X-Api-Key', apiKey);
      if (session && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${session.sessionToken}`);
        sent.set(id, request.clone());
      }
      return request;
    },
    async onResponse({ request, response, id, schemaPath }) {
      const copy = sent.get(id);
      sent.delete(id);
      if (response.ok && SESSION_ROUTES.test(schemaPath)) {
        const body = (await response.clone().json()) as Partial<SessionTokens>;
        if (typeof body.sessionToken === 'string')
          await setSession({ sessionToken: body.sessionToken, refreshToken: body.refreshToken ?? session?.refreshToken });
        return response;
      }
      if (response.ok && schemaPath === '/v1/user/auth/logout') {
        await setSession(undefined);
        return response;
      }
      if (!copy || !(await expiredToken(response))) return response;
      const stale = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      if (!(await refreshAfter(stale)) || !session) return response;
      const again = new Request(copy, { headers: new Headers(copy.headers) });
      again.headers.set('Authorization', `Bearer ${session.sessionToken}`);
      return send(again);
    },
    onError({ id }) {
      sent.delete(id);
    },
  };
  client.use(middleware);

  const streamNotifications = (handlers: StreamHandlers, opts: { lastEventId?: string } = {}): NotificationStream => {
    let lastEventId = opts.lastEventId;
    // eventsource reconnects (after the stream's `retry`, with Last-Event-ID); its fetch is where the
    // session's current token goes on, and where a refusal for an expired token is refreshed.
    const authorised: FetchLike = async (url, init) => {
      const connect = () => {
        const headers = new Headers(init.headers);
        if (session) headers.set('Authorization', `Bearer ${session.sessionToken}`);
        if (tenantId) headers.set('X-Tenant-Id', tenantId);
        return send(new Request(url, { ...init, headers }));
      };
      const token = session?.sessionToken ?? '';
      const res = await connect();
      if (!(await expiredToken(res))) return res;
      if (!(await refreshAfter(token))) {
        handlers.onSessionEnded?.();
        source.close();
        return res;
      }
      return connect();
    };
    const page = (globalThis as { location?: { href: string } }).location;
    const url = new URL(`${baseUrl}/v1/user/notifications/stream`, page?.href ?? 'http://localhost');
    if (lastEventId) url.searchParams.set('lastEventId', lastEventId);
    const source = new EventSource(url, { fetch: authorised });
    const track = (e: { lastEventId: string }) => (lastEventId = e.lastEventId || lastEventId);
    source.addEventListener('notification', (e) => {
      track(e);
      handlers.onNotification(JSON.parse(e.data as string) as Notification);
    });
    source.addEventListener('ready', (e) => {
      track(e);
      handlers.onReady?.(JSON.parse(e.data as string) as { replayed: number });
    });
    source.addEventListener('reset', (e) => {
      track(e);
      handlers.onReset?.(JSON.parse(e.data as string) as { reason: string; limit: number });
    });
    source.addEventListener('session_ended', () => {
      source.close();
      handlers.onSessionEnded?.();
    });
    source.addEventListener('error', (e) => {
      if (source.readyState !== EventSource.CLOSED || !handlers.onSessionEnded) handlers.onError?.(new Error(e.message ?? 'stream error'));
    });
    return {
      get lastEventId() {
        return lastEventId;
      },
      close: () => source.close(),
    };
  };

  const setSessionToken = (token: string | undefined, refreshToken?: string) => {
    session = token ? { sessionToken: token, refreshToken: refreshToken ?? session?.refreshToken } : undefined;
  };
  Object.defineProperty(client, 'tokens', { get: () => session, enumerable: true });
  return Object.assign(client, { setSessionToken, streamNotifications }) as CgsClient;
}
