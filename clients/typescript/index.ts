/**
 * A typed client of the Community Gaming Service, generated from `openapi.json`
 * (`npm run openapi` regenerates `schema.d.ts`). Built on openapi-fetch:
 *
 *   const api = createCgsClient({ baseUrl: 'http://localhost:3000', tenantId: 'demo' });
 *   const { data } = await api.POST('/v1/user/auth/password/login', { body: { username, password } });
 *   api.setSessionToken(data!.sessionToken);
 *   const { data: event } = await api.GET('/v1/quest-event/{eventId}', { params: { path: { eventId } } });
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface CgsClientOptions extends ClientOptions {
  /** Tenant id or slug, sent as `X-Tenant-Id` (optional with a single-tenant deployment). */
  tenantId?: string;
  /** Session token, sent as `Authorization: Bearer`. Can be set later with `setSessionToken`. */
  sessionToken?: string;
}

export type CgsClient = Client<paths> & { setSessionToken(token: string | undefined): void };

export function createCgsClient(options: CgsClientOptions): CgsClient {
  const { tenantId, sessionToken, ...rest } = options;
  let token = sessionToken;
  const client = createClient<paths>(rest);
  const auth: Middleware = {
    onRequest({ request }) {
      if (tenantId && !request.headers.has('X-Tenant-Id')) request.headers.set('X-Tenant-Id', tenantId);
      if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(auth);
  return Object.assign(client, { setSessionToken: (t: string | undefined) => void (token = t) });
}
