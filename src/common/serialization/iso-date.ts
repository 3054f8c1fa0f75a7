const written = new WeakMap<Date, string>();

/**
 * A date as JSON writes it (`toISOString`), remembered per Date object. A response DTO that
 * carries strings instead of Dates keeps `JSON.stringify` on its fast path (a Date is serialized
 * through its `toJSON`, several times slower over a page of rows), and rows served from a read
 * cache format their dates once, not on every request (docs/performance.md). Dates of entities are
 * never mutated in place.
 */
export function isoDate(d: Date): string {
  let s = written.get(d);
  if (s === undefined) written.set(d, (s = d.toISOString()));
  return s;
}

/** `isoDate` for a nullable date. */
export function isoDateOrNull(d: Date | null): string | null {
  return d === null ? null : isoDate(d);
}
