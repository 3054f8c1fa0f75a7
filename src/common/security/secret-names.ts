/** Names of fields and query parameters whose values are never kept: not in the audit log, not in a log line. */
const SECRET_NAME = /secret|password|token|apiKey|key$|signature|^sig$|^ticket$/i;
/** Names that match SECRET_NAME but are no secret, and that an operator needs (to match a retry with its first try). */
const NOT_SECRET = new Set(['idempotencykey']);

export const REDACTED = '[redacted]';

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name) && !NOT_SECRET.has(name.toLowerCase());

/**
 * Query parameters that carry credentials, by exact name, for tools that take a list (the HTTP
 * spans' `redactedQueryParamsServer`): this service's own (`ticket`, the stream's) and the
 * usual ones clients send, with OpenTelemetry's defaults.
 */
export const CREDENTIAL_QUERY_PARAMS = [
  'ticket',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'apiKey',
  'api_key',
  'apikey',
  'key',
  'secret',
  'password',
  'sessionToken',
  'refreshToken',
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
];

/** A request target (`/path?query`) with the values of secret-named query parameters replaced. */
export function redactQueryString(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const params = new URLSearchParams(target.slice(q + 1));
  let changed = false;
  for (const name of new Set(params.keys())) {
    if (!isSecretName(name)) continue;
    params.set(name, REDACTED);
    changed = true;
  }
  return changed ? `${target.slice(0, q)}?${params.toString()}` : target;
}

/** A parsed query (`req.query`) with the values of secret-named parameters replaced, at any depth. */
export function redactQueryObject(query: unknown, depth = 0): unknown {
  if (!query || typeof query !== 'object' || depth > 10) return query;
  if (Array.isArray(query)) return query.map((v) => redactQueryObject(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query as Record<string, unknown>))
    out[k] = isSecretName(k) ? REDACTED : redactQueryObject(v, depth + 1);
  return out;
}
