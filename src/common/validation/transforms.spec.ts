import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { parseBooleanParam, ToArray, ToBoolean, ToDate, ToInteger } from './transforms.js';

class Query {
  @ToArray()
  tags?: unknown;

  @ToBoolean()
  flag?: unknown;

  @ToInteger()
  n?: unknown;

  @ToDate()
  at?: unknown;
}

const parse = (plain: Record<string, unknown>) => plainToInstance(Query, plain);

describe('query transforms', () => {
  it('booleans: true/false in any case and 1/0; anything else, and non-strings, are left for the validator', () => {
    expect([' TRUE ', '1', 'False', '0'].map(parseBooleanParam)).toEqual([true, true, false, false]);
    for (const v of ['', 'yes', 2, true, null, undefined]) expect(parseBooleanParam(v)).toBe(v);
    expect(parse({ flag: 'true' }).flag).toBe(true);
  });

  it('arrays: once, repeated or comma-separated, trimmed, empty entries dropped; absent stays absent; non-strings kept', () => {
    expect(parse({ tags: 'a' }).tags).toEqual(['a']);
    expect(parse({ tags: ['a, b', ' c ', ''] }).tags).toEqual(['a', 'b', 'c']);
    expect(parse({ tags: [1, 'x,,y'] }).tags).toEqual([1, 'x', 'y']);
    expect(parse({ tags: null }).tags).toBeNull();
    expect(parse({}).tags).toBeUndefined();
  });

  it('integers: decimal digits with an optional minus sign; anything else is left as it came', () => {
    expect(['5', '-3', '0', '00012'].map((n) => parse({ n }).n)).toEqual([5, -3, 0, 12]);
    for (const n of ['0x10', '1e1', ' 5', '5 ', '5.0', '+5', '', 'five', 5.5, null]) expect(parse({ n }).n).toBe(n);
    const object = Object.assign(Object.create(null) as object, { a: '1' });
    expect(parse({ n: object }).n).toEqual({ a: '1' });
  });

  it('dates: an ISO 8601 string of a calendar date becomes a Date; other days, numbers and forms are left as they came', () => {
    for (const at of [
      '2026-11-27T14:00:00.000Z',
      '2024-02-29',
      '2000-02-29T00:00:00Z',
      '0001-01-01T00:00:00.000Z',
      '2026-03-01T00:30:00+01:00',
    ])
      expect((parse({ at }).at as Date).getTime()).toBe(new Date(at).getTime());
    for (const at of [
      '2026-02-30T00:00:00Z',
      '2100-02-29',
      '2026-13-01',
      '2026-00-10',
      '1.5',
      '-1',
      '1700000000000',
      'soon',
      1700000000000,
    ])
      expect(parse({ at }).at).toBe(at);
    expect(parse({ at: '+010000-01-01T00:00:00.000Z' }).at).toBeInstanceOf(Date);
  });
});
