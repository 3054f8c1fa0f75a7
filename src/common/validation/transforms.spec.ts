import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { parseBooleanParam, ToArray, ToBoolean } from './transforms.js';

class Query {
  @ToArray()
  tags?: unknown;

  @ToBoolean()
  flag?: unknown;
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
});
