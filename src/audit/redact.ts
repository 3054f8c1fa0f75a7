import { isSecretName as isSecret, REDACTED } from '../common/security/secret-names.js';
import type { NewAuditEntry } from './audit-log.repository.js';

export { REDACTED };

/** The audit log keeps at most this many characters of a request body (its JSON). */
export const MAX_BODY_CHARS = 8 * 1024;

/**
 * Text as the audit log stores it, in every field of an entry (`storableEntry`, and the body in
 * `auditBody`): NUL (U+0000), which PostgreSQL keeps in no text or jsonb, and lone UTF-16
 * surrogates, which JSON writes as `\ud800` and jsonb refuses, become U+FFFD. PostgreSQL would
 * refuse the entry, and with it the batch it goes in; an entry is recorded for requests refused
 * for such input too (a NUL in a path value is answered 400 after the key check).
 */
export const storable = (s: string): string => s.replace(/[\0\p{Cs}]/gu, '\uFFFD');

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return depth > 20 ? REDACTED : value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    if (depth > 20) return REDACTED;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [storable(k), isSecret(k) ? REDACTED : redactValue(v, depth + 1)]),
    );
  }
  return value;
}

/**
 * A request body as the audit log keeps it: secrets redacted (at any depth); over
 * `MAX_BODY_CHARS` of JSON, `{ truncated: true, preview }` with the first characters; an absent
 * or empty body is null.
 */
export function auditBody(body: unknown): object | null {
  // The JSON parser takes objects and arrays only (strict), the form parser objects.
  if (!body || typeof body !== 'object') return null;
  if (!Array.isArray(body) && Object.keys(body).length === 0) return null;
  const redacted = redactValue(body, 0) as object;
  const json = JSON.stringify(redacted);
  return json.length > MAX_BODY_CHARS ? { truncated: true, preview: storable(json.slice(0, MAX_BODY_CHARS)) } : redacted;
}

/** The fields that name the resource an answer is about: its id, or a ledger operation's entry. */
const ID_FIELDS = ['id', 'entryId'] as const;

const idIn = (value: unknown): string | null => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  for (const field of ID_FIELDS) {
    const id = (value as Record<string, unknown>)[field];
    if (typeof id === 'string' && id.length <= 128) return id;
  }
  return null;
};

/**
 * The id of the resource a response names (`{ id }`, a ledger result's `{ entryId }`, or a nested
 * resource's such as `{ event: { id } }`), if any.
 */
export function outcomeOf(value: unknown): string | null {
  const own = idIn(value);
  if (own !== null || !value || typeof value !== 'object' || Array.isArray(value)) return own;
  for (const nested of Object.values(value as Record<string, unknown>)) {
    const id = idIn(nested);
    if (id !== null) return id;
  }
  return null;
}

/** The entry with every text field `storable` (the body is, as `auditBody` returns it). */
export function storableEntry(entry: NewAuditEntry): NewAuditEntry {
  return {
    ...entry,
    actor: storable(entry.actor),
    method: storable(entry.method),
    route: storable(entry.route),
    target: Object.fromEntries(Object.entries(entry.target).map(([k, v]) => [storable(k), storable(String(v))])),
    outcome: entry.outcome === null ? null : storable(entry.outcome),
  };
}
