import type { Middleware } from 'openapi-fetch';
import { createCgsClient, type CgsClient, type components } from '../../clients/typescript/index.ts';
import { ApiError, type ErrorBody } from './errors.ts';
import { currentSession, signOut } from './session.ts';

export type Schemas = components['schemas'];

/**
 * The generated, typed client of the service, with the session's API key. The console calls the
 * management API (`/v1/admin/...`) only, on the origin that served it, so every instance behind a
 * load balancer serves it alike (nothing is kept in the server process).
 */
export function clientFor(apiKey: string): CgsClient {
  const client = createCgsClient({ baseUrl: window.location.origin, apiKey });
  const rotated: Middleware = {
    onResponse({ response }) {
      // The key was rotated (or the tenant removed) while signed in: sign out, say why.
      if (response.status === 401 && currentSession()?.apiKey === apiKey) {
        signOut('The API key was not accepted (was it rotated?). Sign in with the current key.');
      }
      return response;
    },
  };
  client.use(rotated);
  return client;
}

let cached: { key: string; client: CgsClient } | null = null;

/** The client of the signed-in session. */
export function api(): CgsClient {
  const s = currentSession();
  if (!s) throw new ApiError(401, { error: 'signed_out', detail: 'Not signed in' });
  if (cached?.key !== s.apiKey) cached = { key: s.apiKey, client: clientFor(s.apiKey) };
  return cached.client;
}

/** The data of an openapi-fetch answer, or an ApiError with the service's error body. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    // The service answers JSON; a proxy in front of it may not (a text body becomes the detail).
    const body: ErrorBody = typeof error === 'object' && error !== null ? error : { detail: typeof error === 'string' ? error : undefined };
    throw new ApiError(response.status, body);
  }
  return data as T;
}

/** A fresh idempotency key for one ledger operation (kept while the form is retried). */
export function idempotencyKey(prefix: string): string {
  return `console-${prefix}-${crypto.randomUUID()}`;
}
