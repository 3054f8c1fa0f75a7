import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';

/**
 * Names never accepted from a client as a key: those that reach an object's prototype, and the
 * other members of `Object.prototype` (`toString`, `valueOf`, `hasOwnProperty`, ...), which read
 * as that member wherever the key is missing and which class-transformer skips without a word, so
 * the whitelist never saw them as unknown.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);
export const isPrototypeKey = (key: string): boolean => PROTOTYPE_KEYS.has(key);

/** Deepest nesting of arrays/objects accepted in a body or query (every DTO of the API needs far less). */
export const MAX_INPUT_DEPTH = 32;

/** Why a string cannot be taken as it is, or undefined. */
function stringProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'contains a NUL character';
  // `"\ud800"` is valid JSON, but half a character: no UTF-8 encodes it, so PostgreSQL's jsonb,
  // validators that percent-encode and every client that reads it back fail on it.
  if (!s.isWellFormed()) return 'contains a lone UTF-16 surrogate (half a character)';
  return undefined;
}

/**
 * Refuses input that would crash or confuse the layers below with a 400 instead of a 500:
 * nesting deeper than MAX_INPUT_DEPTH (class-transformer recurses and overflows the stack on
 * thousands of levels), NUL characters, which PostgreSQL cannot store in text, and lone
 * surrogates. Iterative, so the check itself never overflows.
 */
export function assertSafeInput(value: unknown, where = 'request'): void {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) throw new DomainError(CommonErrors.unsafe_input, `The ${where} ${problem}`);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH)
      throw new DomainError(CommonErrors.unsafe_input, `The ${where} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const problem = stringProblem(k);
      if (problem) throw new DomainError(CommonErrors.unsafe_input, `The ${where} ${problem}`);
      if (isPrototypeKey(k)) throw new DomainError(CommonErrors.unsafe_input, `The ${where} contains the reserved key "${k}"`);
      stack.push({ v: child, depth: depth + 1 });
    }
  }
}
