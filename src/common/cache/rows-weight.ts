/** What a row's object and its other fields count, besides its text. */
const ROW = 512;
/** What an element of a list field that is not text counts (a reward, say). */
const ELEMENT = 64;

/**
 * Roughly the bytes a page of rows keeps, for a cache of pages: a fixed part per row, and the
 * text of its string and string-list fields, where a row grows (a quest's description and tags).
 * Pages are cached per filter a client chooses, so a cache counted in pages would let one client
 * fill a worker with full pages of long rows.
 */
export function rowsWeight(rows: readonly object[]): number {
  let n = 0;
  for (const row of rows) {
    n += ROW;
    for (const v of Object.values(row)) {
      if (typeof v === 'string') n += v.length;
      else if (Array.isArray(v)) for (const x of v as unknown[]) n += typeof x === 'string' ? x.length : ELEMENT;
    }
  }
  return n;
}

/** The bound of a cache of pages weighed by `rowsWeight`: about 8 MB of rows by this count, per cache and process. */
export const PAGES_WEIGHT_MAX = 8_000_000;
