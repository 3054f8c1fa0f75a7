import { LRUCache } from 'lru-cache';
import qs from 'qs';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { deepFreeze } from './deep-freeze.js';
import { assertSafeInput, isPrototypeKey } from './safe-input.js';

/** Most elements one query parameter may carry (`a=1&a=2`, `a[]=1`, `a[0]=1`); every array DTO allows far fewer. */
export const MAX_QUERY_ARRAY = 100;
/** Most parameters in one query string (Node's own `querystring` default). */
export const MAX_QUERY_PARAMETERS = 1000;

const refuse = (message: string) => new DomainError(CommonErrors.unsafe_input, message);

/**
 * qs, configured so that no key a client sends can reach an object's prototype and nothing grows
 * without bound. `plainObjects` makes every object it builds null-prototype; the decoder sees each
 * decoded key (after `%5B`/`%5D` become brackets) before it is split, so a prototype name in any
 * segment is refused rather than silently dropped (qs's own guard drops `__proto__` and, with
 * `plainObjects`, accepts `constructor`). `comma: false` keeps `a=1,2` one string for `ToArray`.
 */
const OPTIONS: qs.IParseOptions = {
  plainObjects: true,
  allowPrototypes: false,
  allowDots: false,
  comma: false,
  parseArrays: true,
  duplicates: 'combine',
  // `filter[status][]=a`: a deepObject parameter holding an array is the deepest form the API documents.
  depth: 2,
  strictDepth: true,
  arrayLimit: MAX_QUERY_ARRAY,
  parameterLimit: MAX_QUERY_PARAMETERS,
  throwOnLimitExceeded: true,
  decoder(text: string, decode: qs.defaultDecoder, charset: string, type: 'key' | 'value'): string {
    // qs keeps a token it cannot decode (`%`, `%zz`, `%C3%28`) as it was sent: refused instead.
    if (text.includes('%') && !decodes(text)) throw refuse('The query string is not valid percent-encoded UTF-8');
    const decoded = decode(text, decode, charset);
    if (type === 'key' && decoded.split(/[[\]]/).some(isPrototypeKey))
      throw refuse(`The query parameter name "${decoded.slice(0, 64)}" is not allowed`);
    return decoded;
  },
};

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Distinct query strings whose parse is kept (the same pages and filters come back from every player). */
const KEPT_QUERIES = 1_000;
/** Longer query strings are parsed every time (rare, and they would crowd the memory). */
const MAX_KEPT_LENGTH = 2048;
const kept = new LRUCache<string, Record<string, unknown>>({ max: KEPT_QUERIES });

/**
 * The query parser of the whole app (Express `query parser` setting). Beside `a=x&a=y` (an array)
 * and `a=x` (a string, commas kept), it reads `a[]=x&a[]=y` (axios' default) and `a[0]=x` as
 * arrays and OpenAPI deepObject `a[b]=x` as `{a: {b: x}}`. Refused with 400: a prototype name
 * (`__proto__`, `constructor`, `prototype`) in any segment of a name, more than two bracket levels,
 * more than MAX_QUERY_ARRAY elements or an index at or above it, more than MAX_QUERY_PARAMETERS
 * parameters, and what `assertSafeInput` refuses (NUL characters, too deep). The result of a query
 * string up to MAX_KEPT_LENGTH long is kept (the last KEPT_QUERIES distinct ones), deeply frozen, and
 * shared by the requests that send the same string: parsing was about a twentieth of a cached list
 * or leaderboard read (docs/performance.md); a refused string is parsed, and refused, every time.
 */
export function parseQuery(search: string | null | undefined): Record<string, unknown> {
  const raw = search ?? '';
  const keep = raw.length <= MAX_KEPT_LENGTH;
  const hit = keep ? kept.get(raw) : undefined;
  if (hit) return hit;
  let query: Record<string, unknown>;
  try {
    query = qs.parse(raw, OPTIONS);
  } catch (err) {
    // qs reports every limit it enforces as a RangeError.
    if (err instanceof RangeError) throw refuse(`The query string is refused: ${err.message}`);
    throw err;
  }
  // Depth and NUL characters, as for a body: checked here once per distinct query string.
  assertSafeInput(query, 'query');
  // Shared by every request with the same query string, so frozen.
  if (keep) kept.set(raw, deepFreeze(query));
  return query;
}
