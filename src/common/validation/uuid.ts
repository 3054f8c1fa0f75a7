/**
 * A uuid in its text form, any case: how the services tell an id from a slug, a handle or a key
 * in a path (`{communityId}` takes either). Ids are stored lower-case: compare after `toLowerCase()`.
 */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
