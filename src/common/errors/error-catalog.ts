/**
 * Every error the service can answer with. Modules declare their own errors with
 * `defineErrors()` next to their service; the catalogue feeds the exception filter,
 * `docs/errors.md` and the Swagger description.
 *
 * Body of every error response: `{ code, message, error, detail }` (+ `requestId`, `details`).
 * - `message`: the interface's identifier, what a client written to the interface compares:
 *   `generic_client_error` for every 400; `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED` or
 *   `REFRESH_TOKEN_EXPIRED` for every 401; the `error` identifier for every other status.
 * - `code`: stable number. Every 400 uses 10002 as the interface specifies; other cases have their own.
 * - `error`: stable identifier of the precise case (`event_full`, `login_token_replayed`, ...).
 * - `detail`: human-readable, specific to the request; never parsed by clients.
 */
export interface ErrorDefinition {
  readonly status: number;
  readonly code: number;
  /** The interface's identifier that the body's `message` carries. */
  readonly message: string;
  readonly error: string;
  readonly description: string;
}

/** The code the interface assigns to every 400 response. */
export const GENERIC_CLIENT_ERROR_CODE = 10002;
/** The identifiers the interface allows in the `message` of a 401. */
export const UNAUTHORIZED_MESSAGES = ['GENERIC_UNAUTHORIZED', 'SESSION_TOKEN_EXPIRED', 'REFRESH_TOKEN_EXPIRED'] as const;

/** What `message` says for a definition: the interface's identifier of its status, else its own. */
function interfaceMessage(status: number, error: string): string {
  if (status === 400) return 'generic_client_error';
  if (status === 401) return (UNAUTHORIZED_MESSAGES as readonly string[]).includes(error) ? error : 'GENERIC_UNAUTHORIZED';
  return error;
}

const catalog = new Map<string, ErrorDefinition>();

export function defineErrors<K extends string>(
  defs: Record<K, { status: number; code?: number; description: string; error?: string }>,
): Record<K, ErrorDefinition> {
  const out = {} as Record<K, ErrorDefinition>;
  for (const key of Object.keys(defs) as K[]) {
    const d = defs[key];
    const code = d.status === 400 ? GENERIC_CLIENT_ERROR_CODE : d.code;
    if (code === undefined) throw new Error(`error ${key} needs a numeric code`);
    const error = d.error ?? key;
    const def: ErrorDefinition = { status: d.status, code, message: interfaceMessage(d.status, error), error, description: d.description };
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
    description: 'The request is malformed in a way no more precise case names; `detail` says how.',
  },
  validation_failed: {
    status: 400,
    description:
      'A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.',
  },
  invalid_json: { status: 400, description: 'The body is not valid JSON.' },
  unsafe_input: {
    status: 400,
    description:
      'The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`, or another member of `Object.prototype` such as `toString`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).',
  },
  GENERIC_UNAUTHORIZED: {
    status: 401,
    code: 10401,
    description:
      'No valid credentials, in a case no more precise `error` names. It is also the `message` of every other 401 but the two expiries (failed logins of every kind included).',
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
  session_token_missing: {
    status: 401,
    code: 10411,
    description: 'The route needs a session token: send `Authorization: Bearer <sessionToken>`.',
  },
  session_token_invalid: {
    status: 401,
    code: 10412,
    description: 'The session token is malformed, tampered with, signed with another key or revoked.',
  },
  session_ended: {
    status: 401,
    code: 10416,
    description: 'The session was ended: logged out, or its user no longer exists. Log in again.',
  },
  api_key_missing: { status: 401, code: 10413, description: 'The management route needs the tenant API key in `X-Api-Key`.' },
  api_key_invalid: { status: 401, code: 10414, description: 'The API key is not the key of any tenant (or was rotated).' },
  tenant_mismatch: { status: 401, code: 10415, description: 'The credentials belong to another tenant than the one `X-Tenant-Id` names.' },
  forbidden: { status: 403, code: 10003, description: 'The credentials are valid but do not allow this operation.' },
  not_found: {
    status: 404,
    code: 10004,
    description: 'The route or the addressed record does not exist (or belongs to another tenant or user).',
  },
  conflict: { status: 409, code: 10009, description: 'The request conflicts with the current state.' },
  write_conflict: {
    status: 409,
    code: 10010,
    description:
      'A concurrent request changed the same data at the same moment and this one was rolled back; nothing was applied. Retry it.',
  },
  payload_too_large: { status: 413, code: 10013, description: 'The request body exceeds the size limit.' },
  unsupported_media_type: {
    status: 415,
    code: 10015,
    description: 'The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.',
  },
  request_timeout: {
    status: 408,
    code: 10008,
    description: 'The request (its headers and body) was not received in full within REQUEST_TIMEOUT_MS; the connection is closed.',
  },
  headers_too_large: {
    status: 431,
    code: 10031,
    description: 'The request line or headers exceed the size limit (e.g. a very long query string).',
  },
  too_many_requests: {
    status: 429,
    code: 10029,
    description: 'Rate limit exceeded; retry after the number of seconds in the Retry-After header.',
  },
  internal_error: {
    status: 500,
    code: 10001,
    description: 'An unexpected error. Details are logged under the request id, never returned.',
  },
  service_unavailable: { status: 503, code: 10503, description: 'A dependency (the database) is unavailable; retry later.' },
  database_timeout: {
    status: 503,
    code: 10504,
    description:
      'The database did not finish in time: a row this request needs is held by another transaction, or a statement ran past its limit. Nothing was applied; retry after the Retry-After seconds (a purchase or grant with the same nonce or idempotency key).',
  },
});

/** The 400 cases every validated route can answer with (documentation lists). */
export const INPUT_ERRORS = [CommonErrors.generic_client_error, CommonErrors.validation_failed];
/** The 401 cases of every route that needs a session token. */
export const SESSION_ERRORS = [
  CommonErrors.session_token_missing,
  CommonErrors.session_token_invalid,
  CommonErrors.session_ended,
  CommonErrors.SESSION_TOKEN_EXPIRED,
  CommonErrors.tenant_mismatch,
];
/** The 401 cases of every management route (API key). */
export const API_KEY_ERRORS = [CommonErrors.api_key_missing, CommonErrors.api_key_invalid, CommonErrors.tenant_mismatch];
