/**
 * A uuid in its text form, any case. Services do not test it themselves: `refOf` and `idOf` below
 * (and `TenantScopedRepository`, which uses them) tell an id from a slug, a handle or a key in a
 * path (`{communityId}` takes either). Ids are stored lower-case.
 */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key as it arrives in a path, told apart once: an id (a uuid, lower-cased) or a slug or key (lower-cased). */
export type Ref = { id: string } | { key: string };

/**
 * The one place an id is told from a slug: `raw` trimmed and lower-cased, as an id when it is a
 * uuid and as a key otherwise; null when it is empty or longer than any slug (`max`), so that no
 * lookup is sent for it.
 */
export function refOf(raw: string, max = 64): Ref | null {
  const key = raw.trim().toLowerCase();
  if (key.length === 0 || key.length > max) return null;
  return UUID_RE.test(key) ? { id: key } : { key };
}

/** `raw` as a stored id (lower-case) when it is a uuid, else null: a lookup by id that cannot match is not sent. */
export function idOf(raw: string): string | null {
  return UUID_RE.test(raw) ? raw.toLowerCase() : null;
}
