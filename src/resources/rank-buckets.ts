/**
 * Pure rules of the rank counters. A score s > 0 is counted at every level L in bucket
 * s >> (4L) (its base-16 prefix), except bucket 0, which is never needed. The number of users
 * with a score strictly above s is the sum, over the levels, of the buckets that share s's
 * parent (s >> 4(L+1)) and are greater than s's own bucket: at most 15 buckets per level,
 * RANK_LEVELS levels, whatever the population.
 */
export const RANK_BITS = 4;
/** Levels 0..13 cover every score below 16^14 = 2^56 (scores stay below 2^53). */
export const RANK_LEVELS = 14;
/** Largest balance or earned amount (Number.MAX_SAFE_INTEGER): `resource_balances` refuses more (`ck_resource_balances_amounts_safe`). */
export const MAX_AMOUNT_TOTAL = Number.MAX_SAFE_INTEGER;

export interface BucketChange {
  level: number;
  bucket: bigint;
  delta: 1 | -1;
}

export function bucketOf(score: bigint, level: number): bigint {
  return score >> BigInt(RANK_BITS * level);
}

/** The counter changes when a user's score moves from `from` to `to` (0 = unranked). */
export function bucketChanges(from: bigint, to: bigint): BucketChange[] {
  const out: BucketChange[] = [];
  if (from === to) return out;
  for (let level = 0; level < RANK_LEVELS; level++) {
    const a = bucketOf(from, level);
    const b = bucketOf(to, level);
    if (a === b) continue;
    if (a > 0n) out.push({ level, bucket: a, delta: -1 });
    if (b > 0n) out.push({ level, bucket: b, delta: 1 });
  }
  return out;
}

/** The (level, lowest bucket, highest bucket) ranges whose counts add up to "users with a score > s". */
export function rangesAbove(score: bigint): { level: number; from: bigint; to: bigint }[] {
  const out: { level: number; from: bigint; to: bigint }[] = [];
  for (let level = 0; level < RANK_LEVELS; level++) {
    const own = bucketOf(score, level);
    const last = (bucketOf(score, level + 1) << BigInt(RANK_BITS)) + 15n;
    if (own < last) out.push({ level, from: own + 1n, to: last });
  }
  return out;
}
