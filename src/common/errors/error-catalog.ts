/**
 * Every error the service can answer with. Modules declare their own errors with
 * `defineErrors()` next to their service; the catalogue feeds the exception filter,
 * `docs/errors.md` and the Swagger description.
 *
 * Body of every error response: `{ code, error, message }` (+ `requestId`, `details`).
 * - `code`: stable number. Every HTTP 400 uses 10002 as the interface specifies.
 * - `error`: stable identifier (the interface's `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED`, ...).
 * - `message`: human-readable, specific to the case.
 */
export interface ErrorDefinition {
  readonly status: number;
  readonly code: number;
  readonly error: string;
  readonly description: string;
}

/** The code the interface assigns to every 400 response. */
export const GENERIC_CLIENT_ERROR_CODE = 10002;

const catalog = new Map<string, ErrorDefinition>();

export function defineErrors<K extends string>(
  defs: Record<K, { status: number; code?: number; description: string; error?: string }>,
): Record<K, ErrorDefinition> {
  const out = {} as Record<K, ErrorDefinition>;
  for (const key of Object.keys(defs) as K[]) {
    const d = defs[key];
    const code = d.status === 400 ? GENERIC_CLIENT_ERROR_CODE : d.code;
    if (code === undefined) throw new Error(`error ${key} needs a numeric code`);
    const def: ErrorDefinition = { status: d.status, code, error: d.error ?? key, description: d.description };
    const existing = catalog.get(def.error);
    if (existing && (existing.code !== def.code || existing.status !== def.status)) {
      throw new Error(`error identifier ${def.error} is defined twice`);
    }
    if (d.status !== 400) {
      const clash = [...catalog.values()].find((e) => e.code === code && e.error !== def.error);
      if (clash) throw new Error(`error code ${code} is used by ${clash.error} and ${def.error}`);
    }
    catalog.set(def.error, def);
    out[key] = def;
  }
  return out;
}

export function errorCatalog(): ErrorDefinition[] {
  return [...catalog.values()].sort((a, b) => a.status - b.status || a.code - b.code || a.error.localeCompare(b.error));
}

/** Errors every endpoint can return. */
export const CommonErrors = defineErrors({
  generic_client_error: {
    status: 400,
    description: 'The request is malformed: invalid JSON, a missing, unknown or ill-typed field, or a bad parameter. The message says which.',
  },
  GENERIC_UNAUTHORIZED: {
    status: 401,
    code: 10401,
    description: 'No valid credentials: missing, malformed, tampered or revoked token, wrong API key, or failed login.',
  },
  SESSION_TOKEN_EXPIRED: {
    status: 401,
    code: 10402,
    description: 'The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.',
  },
  REFRESH_TOKEN_EXPIRED: {
    status: 401,
    code: 10403,
    description: 'The refresh token has expired; log in again.',
  },
  forbidden: { status: 403, code: 10003, description: 'The credentials are valid but do not allow this operation.' },
  not_found: { status: 404, code: 10004, description: 'The route or the addressed record does not exist (or belongs to another tenant or user).' },
  conflict: { status: 409, code: 10009, description: 'The request conflicts with the current state.' },
  write_conflict: { status: 409, code: 10010, description: 'A concurrent request changed the same data at the same moment and this one was rolled back; nothing was applied. Retry it.' },
  payload_too_large: { status: 413, code: 10013, description: 'The request body exceeds the size limit.' },
  unsupported_media_type: { status: 415, code: 10015, description: 'The request body is not JSON.' },
  headers_too_large: { status: 431, code: 10031, description: 'The request line or headers exceed the size limit (e.g. a very long query string).' },
  too_many_requests: { status: 429, code: 10029, description: 'Rate limit exceeded; retry after the number of seconds in the Retry-After header.' },
  internal_error: { status: 500, code: 10001, description: 'An unexpected error. Details are logged under the request id, never returned.' },
  service_unavailable: { status: 503, code: 10503, description: 'A dependency (the database) is unavailable; retry later.' },
  database_timeout: {
    status: 503,
    code: 10504,
    description: 'The database did not finish in time: a row this request needs is held by another transaction, or a statement ran past its limit. Nothing was applied; retry after the Retry-After seconds (a purchase or grant with the same nonce or idempotency key).',
  },
});
