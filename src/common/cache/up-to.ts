/**
 * lru-cache options that bound a cache to `n` entries without allocating them up front: with
 * `max`, lru-cache allocates its key, value, link and TTL arrays for all `n` entries when the cache
 * is made (several MB per cache at 100,000, most of the service's idle memory once there were a
 * dozen caches: P7 in docs/performance.md); counted by `maxSize`, they grow as entries come.
 */
export const upTo = (n: number) => ({ maxSize: n, sizeCalculation: () => 1 });
