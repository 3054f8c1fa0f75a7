/** The longest wait between two attempts of a delivery. */
export const MAX_RETRY_DELAY_MS = 4 * 3600 * 1000;

/**
 * When the attempts of a delivery happen, in milliseconds after the first (before jitter): the
 * n-th retry waits `base · 2^(n-1)`, at most 4 hours, and the last attempt is at the end of the
 * window. With the defaults (30 s, 24 h): 15 attempts, at 0, 30 s, 1.5 min, 3.5 min, 7.5 min,
 * 15.5 min, 31.5 min, 63.5 min, 2.1 h, 4.3 h, 8.3 h, 12.3 h, 16.3 h, 20.3 h and 24 h.
 */
export function retryOffsets(baseMs: number, windowMs: number): number[] {
  const offsets = [0];
  for (let n = 1; ; n++) {
    const next = offsets[n - 1] + Math.min(baseMs * 2 ** (n - 1), MAX_RETRY_DELAY_MS);
    if (next >= windowMs) {
      offsets.push(windowMs);
      return offsets;
    }
    offsets.push(next);
  }
}

/**
 * The wait after the `attempt`-th failed attempt (1-based), with ±20 % jitter so that receivers
 * coming back from an outage are not hit by every retry at once; null: that was the last attempt
 * (the delivery is dead-lettered).
 */
export function retryDelayMs(attempt: number, offsets: readonly number[], random: () => number = Math.random): number | null {
  if (attempt >= offsets.length) return null;
  const nominal = offsets[attempt] - offsets[attempt - 1];
  return Math.max(1, Math.round(nominal * (0.8 + 0.4 * random())));
}
