/**
 * How a ranked user is written into a Redis sorted set so that Redis orders a board exactly as
 * the PostgreSQL rank index does: `earned DESC, earned_at ASC, user_id ASC`.
 *
 * - score = -earned. Redis sorts ascending by score, so ZRANGE/ZRANK walk the board from the
 *   highest earned down; integers below 2^53 (MAX_AMOUNT_TOTAL) are exact in a double.
 * - member = 14 hex digits of `earned_at` in microseconds since the epoch, then the 32 hex digits
 *   of the user id. Redis orders equal scores by member, bytewise ascending: first by who
 *   reached the score first, then by user id (PostgreSQL compares uuids bytewise too, which is
 *   the order of their lowercase hex).
 *
 * Not ZREVRANGE with +earned: it would reverse the member order as well, putting the latest to
 * reach a score first.
 */
const AT_DIGITS = 14;
const USER_DIGITS = 32;
export const MEMBER_LENGTH = AT_DIGITS + USER_DIGITS;

/** A user's ranked row as PostgreSQL holds it: `earned` and `earned_at` (microseconds) as decimal text. */
export interface RankEntry {
  userId: string;
  earned: string;
  earnedAtMicros: string;
}

export function memberOf(e: RankEntry): string {
  const at = BigInt(e.earnedAtMicros);
  if (at < 0n || at >= 16n ** BigInt(AT_DIGITS)) throw new Error(`earned_at out of range: ${e.earnedAtMicros}`);
  const user = e.userId.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(user)) throw new Error(`not a uuid: ${e.userId}`);
  return at.toString(16).padStart(AT_DIGITS, '0') + user;
}

/** The Redis score of an earned amount (decimal text, kept as text: no rounding on the way). */
export function scoreOf(earned: string): string {
  return earned === '0' ? '0' : `-${earned}`;
}

/** The user id (canonical uuid text) of a member. */
export function userOfMember(member: string): string {
  const u = member.slice(AT_DIGITS);
  return `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;
}

/** The earned amount of a Redis score (as Redis prints it: "-1500"). */
export function earnedOfScore(score: string): number {
  return -Number(score) || 0;
}
