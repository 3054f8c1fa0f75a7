import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';

/** `Key (user_id)=(<uuid>) is not present in table "users".`, whatever the referencing column. */
const MISSING_USER = /^Key \([a-z_]+\)=\(([0-9a-f-]{36})\) is not present in table "users"\.$/;

/**
 * A user deleted while their session token is still valid is ended on every instance through the
 * revocation list (SessionRevocations) within the moment its notification takes. A write in that
 * moment fails on a foreign key to the user: that is the session's user gone, a 401, not a 500.
 * Returns the 401 for such an error, else undefined. Called by the exception filter, so it costs
 * nothing on requests that succeed.
 */
export function sessionUserGone(error: unknown, sessionUserId: string | undefined): DomainError | undefined {
  if (!sessionUserId) return undefined;
  const e = error as { code?: string; detail?: string; driverError?: { code?: string; detail?: string } } | null | undefined;
  const code = e?.code ?? e?.driverError?.code;
  const detail = e?.detail ?? e?.driverError?.detail;
  if (code !== '23503' || typeof detail !== 'string' || MISSING_USER.exec(detail)?.[1] !== sessionUserId) return undefined;
  return new DomainError(CommonErrors.session_ended, 'The user of this session no longer exists');
}
