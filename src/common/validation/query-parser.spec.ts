import { DomainError } from '../errors/domain-error.js';
import { MAX_QUERY_ARRAY, MAX_QUERY_PARAMETERS, parseQuery } from './query-parser.js';

const refusal = (search: string): DomainError => {
  try {
    parseQuery(search);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error(`${search} was accepted`);
};

describe('parseQuery', () => {
  it('reads repeated, bracketed and indexed array spellings alike, and keeps commas for ToArray', () => {
    expect(parseQuery('fields=a&fields=b')).toEqual({ fields: ['a', 'b'] });
    expect(parseQuery('fields[]=a&fields[]=b')).toEqual({ fields: ['a', 'b'] });
    expect(parseQuery('fields%5B%5D=a&fields%5B%5D=b')).toEqual({ fields: ['a', 'b'] });
    expect(parseQuery('fields[0]=a&fields[1]=b')).toEqual({ fields: ['a', 'b'] });
    expect(parseQuery('fields=a,b')).toEqual({ fields: 'a,b' });
    expect(parseQuery('tags=&questTypes=&page=1')).toEqual({ tags: '', questTypes: '', page: '1' });
  });

  it('folds deepObject parameters, with arrays inside them', () => {
    expect(parseQuery('filter[containerId]=x&filter[status]=active&filter[status]=completed')).toEqual({
      filter: { containerId: 'x', status: ['active', 'completed'] },
    });
    expect(parseQuery('filter[status][]=active&filter[status][]=completed')).toEqual({ filter: { status: ['active', 'completed'] } });
  });

  it('builds only null-prototype objects', () => {
    const q = parseQuery('filter[a]=1&b=2');
    expect(Object.getPrototypeOf(q)).toBeNull();
    expect(Object.getPrototypeOf(q.filter)).toBeNull();
  });

  it.each([
    '__proto__=1',
    '__proto__[polluted]=1',
    '__proto__[]=1',
    'constructor[prototype][polluted]=1',
    'prototype[polluted]=1',
    'x[__proto__]=1',
    'filter[constructor]=1',
    'filter[status][prototype]=1',
    '%5F%5Fproto%5F%5F%5Bpolluted%5D=1',
    'a=1&__proto__%5Bpolluted%5D=1',
  ])('refuses a prototype name in any segment of a name with 400: %s', (search) => {
    expect(refusal(search).definition).toMatchObject({ status: 400, message: 'generic_client_error', error: 'unsafe_input' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts prototype names as values and names that merely contain them', () => {
    expect(parseQuery('q=__proto__&constructorName=constructor')).toEqual({ q: '__proto__', constructorName: 'constructor' });
  });

  it('refuses huge arrays and indexes, deep nesting and too many parameters with 400', () => {
    expect(parseQuery(`a[${MAX_QUERY_ARRAY - 1}]=x`)).toEqual({ a: ['x'] });
    for (const search of [
      `a[${MAX_QUERY_ARRAY}]=x`,
      'a[999999]=x',
      Array.from({ length: MAX_QUERY_ARRAY + 1 }, () => 'a=1').join('&'),
      'a[b][c][d]=1',
      Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, i) => `p${i}=1`).join('&'),
    ]) {
      expect(refusal(search).definition.status).toBe(400);
    }
  });

  it('refuses percent-encoding that does not decode, and half characters, in names and values; decodes the rest', () => {
    for (const search of ['x=%', 'x=%zz', 'x=%E0%A4%A', 'x=%C3%28', '%zz=1', 'a%=1', 'x=%ED%A0%80', 'x=%FF'])
      expect([search, refusal(search).message]).toEqual([search, expect.stringMatching(/percent-encoded UTF-8|surrogate/)]);
    expect(parseQuery('x=%C3%A9+%2B%25&y=a%20b&z=100%25')).toEqual({ x: 'é +%', y: 'a b', z: '100%' });
  });

  it('keeps the parse of a query string, frozen, for the next request with the same string; refusals are not kept', () => {
    const first = parseQuery('limit=50&page=2&filter[status][]=active');
    expect(parseQuery('limit=50&page=2&filter[status][]=active')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.filter)).toBe(true);
    expect(() => {
      first.page = '3';
    }).toThrow(TypeError);
    expect(parseQuery('limit=50&page=2&filter[status][]=active')).toEqual({ limit: '50', page: '2', filter: { status: ['active'] } });
    // No query string at all is the empty query.
    expect(parseQuery(null)).toEqual({});
    // Too long to keep: parsed anew each time.
    const long = `q=${'x'.repeat(3000)}`;
    expect(parseQuery(long)).not.toBe(parseQuery(long));
    // A NUL character is refused here (as for a body), and again on the next request.
    for (let i = 0; i < 2; i++) expect(refusal('name=a%00b').definition.error).toBe('unsafe_input');
    expect(refusal('__proto__[x]=1').definition.error).toBe('unsafe_input');
  });
});
