import { DomainError } from '../errors/domain-error.js';
import { assertSafeInput, MAX_INPUT_DEPTH } from './safe-input.js';

const nest = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('assertSafeInput', () => {
  it('accepts ordinary input up to the depth limit', () => {
    expect(() => assertSafeInput({ a: [1, 'x', { b: null }], c: true })).not.toThrow();
    expect(() => assertSafeInput(nest(MAX_INPUT_DEPTH))).not.toThrow();
  });

  it('refuses deeper nesting with a 400, even 100,000 levels (no recursion)', () => {
    expect(() => assertSafeInput(nest(MAX_INPUT_DEPTH + 1))).toThrow(DomainError);
    let arr: unknown[] = [];
    for (let i = 0; i < 100_000; i++) arr = [arr];
    try {
      assertSafeInput(arr, 'body');
      throw new Error('not refused');
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).definition.status).toBe(400);
    }
  });

  it('refuses NUL characters in values and keys', () => {
    expect(() => assertSafeInput({ name: 'a\u0000b' })).toThrow(/NUL/);
    expect(() => assertSafeInput({ ['k\u0000']: 1 })).toThrow(/NUL/);
    expect(() => assertSafeInput(['ok', ['x\u0000']])).toThrow(/NUL/);
  });

  it('refuses the keys that reach a prototype, at any depth', () => {
    expect(() => assertSafeInput(JSON.parse('{"__proto__":{"x":1}}'))).toThrow(/reserved key "__proto__"/);
    expect(() => assertSafeInput({ a: [{ b: { constructor: { prototype: 1 } } }] })).toThrow(/reserved key "constructor"/);
    expect(() => assertSafeInput({ prototype: 1 })).toThrow(/reserved key "prototype"/);
    expect(() => assertSafeInput({ proto: 1, constructorName: 'x' })).not.toThrow();
    // The other members of Object.prototype too: class-transformer skips them without a word.
    for (const key of ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'toLocaleString'])
      expect(() => assertSafeInput({ a: { [key]: 'x' } })).toThrow(`reserved key "${key}"`);
    expect(() => assertSafeInput({ name: 'toString', tostring: 1 })).not.toThrow();
  });
});
