/**
 * lru-cache options that bound a cache to `n` entries without allocating them up front: with
 * `max`, lru-cache allocates its key, value, link and TTL arrays for all `n` entries when the cache
 * is made (several MB per cache at 100,000, most of the service's idle memory once there were a
 * dozen caches: P7 in docs/performance.md); counted by `maxSize`, they grow as entries come.
 * `weigh`: what one value counts against `n` (default 1; at least 1).
 */
export const upTo = <V>(n: number, weigh?: (value: V) => number) => ({
  maxSize: n,
  sizeCalculation: weigh ? (value: V) => Math.max(1, weigh(value)) : () => 1,
});
