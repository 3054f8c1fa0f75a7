import qs from 'qs';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { isPrototypeKey } from './safe-input.js';

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
    const decoded = decode(text, decode, charset);
    if (type === 'key' && decoded.split(/[[\]]/).some(isPrototypeKey))
      throw refuse(`The query parameter name "${decoded.slice(0, 64)}" is not allowed`);
    return decoded;
  },
};

/**
 * The query parser of the whole app (Express `query parser` setting). Beside `a=x&a=y` (an array)
 * and `a=x` (a string, commas kept), it reads `a[]=x&a[]=y` (axios' default) and `a[0]=x` as
 * arrays and OpenAPI deepObject `a[b]=x` as `{a: {b: x}}`. Refused with 400: a prototype name
 * (`__proto__`, `constructor`, `prototype`) in any segment of a name, more than two bracket levels,
 * more than MAX_QUERY_ARRAY elements or an index at or above it, more than MAX_QUERY_PARAMETERS
 * parameters.
 */
export function parseQuery(search: string): Record<string, unknown> {
  try {
    return qs.parse(search, OPTIONS);
  } catch (err) {
    // qs reports every limit it enforces as a RangeError.
    if (err instanceof RangeError) throw refuse(`The query string is refused: ${err.message}`);
    throw err;
  }
}
