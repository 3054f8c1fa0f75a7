/** A reward's final places and whether it is paid one grant at a time (items, prizes). */
export interface PlannedRange {
  from: number;
  to: number;
  oneByOne: boolean;
}

/**
 * The last place of the next batch after place `after`: at most `maxPlaces` places, none after
 * `through`, and at most `maxOneByOne` item and prize grants (each is its own statements, and its
 * supply row stays locked until the batch commits). At least one place, whatever it holds
 * (`after` < `through`).
 */
export function nextBatchEnd(ranges: PlannedRange[], after: number, through: number, maxPlaces: number, maxOneByOne: number): number {
  const first = after + 1;
  const grantsThrough = (p: number) =>
    ranges.reduce((n, r) => (r.oneByOne ? n + Math.max(0, Math.min(r.to, p) - Math.max(r.from, first) + 1) : n), 0);
  let hi = Math.max(first, Math.min(through, after + maxPlaces));
  if (hi === first || grantsThrough(hi) <= maxOneByOne) return hi;
  // The last place whose grants still fit (the count only grows with the place).
  let lo = first;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (grantsThrough(mid) <= maxOneByOne) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
