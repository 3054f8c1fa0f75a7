/**
 * A typed client of the Community Gaming Service, generated from `openapi.json`
 * (`npm run openapi` regenerates `schema.d.ts`). Built on openapi-fetch:
 *
 *   const api = createCgsClient({ baseUrl: 'http://localhost:3000', tenantId: 'demo' });
 *   const { data } = await api.POST('/v1/user/auth/password/login', { body: { username, password } });
 *   api.setSessionToken(data!.sessionToken);
 *   const { data: event } = await api.GET('/v1/quest-event/{eventId}', { params: { path: { eventId } } });
 *
 * The management API (`/v1/admin/...`) takes the tenant's API key instead:
 *
 *   const admin = createCgsClient({ baseUrl, apiKey: process.env.CGS_API_KEY });
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface CgsClientOptions extends ClientOptions {
  /** Tenant id or slug, sent as `X-Tenant-Id` (optional with a single-tenant deployment). */
  tenantId?: string;
  /** Session token, sent as `Authorization: Bearer`. Can be set later with `setSessionToken`. */
  sessionToken?: string;
  /** The tenant's management API key, sent as `X-Api-Key` (the `/v1/admin` routes). */
  apiKey?: string;
}

export type CgsClient = Client<paths> & { setSessionToken(token: string | undefined): void };

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
  const { tenantId, sessionToken, apiKey, ...rest } = options;
  let token = sessionToken;
  const client = createClient<paths>({ querySerializer: serializeQuery, ...rest });
  const auth: Middleware = {
    onRequest({ request }) {
      if (tenantId && !request.headers.has('X-Tenant-Id')) request.headers.set('X-Tenant-Id', tenantId);
      if (apiKey && !request.headers.has('X-Api-Key')) request.headers.set('X-Api-Key', apiKey);
      if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(auth);
  return Object.assign(client, { setSessionToken: (t: string | undefined) => void (token = t) });
}
