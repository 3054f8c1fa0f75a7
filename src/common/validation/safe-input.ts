import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';

/** Names that reach an object's prototype when used as a key: never accepted from a client. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const isPrototypeKey = (key: string): boolean => PROTOTYPE_KEYS.has(key);

/** Deepest nesting of arrays/objects accepted in a body or query (every DTO of the API needs far less). */
export const MAX_INPUT_DEPTH = 32;

/**
 * Refuses input that would crash or confuse the layers below with a 400 instead of a 500:
 * nesting deeper than MAX_INPUT_DEPTH (class-transformer recurses and overflows the stack on
 * thousands of levels) and NUL characters, which PostgreSQL cannot store in text. Iterative, so
 * the check itself never overflows.
 */
export function assertSafeInput(value: unknown, where = 'request'): void {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new DomainError(CommonErrors.unsafe_input, `The ${where} contains a NUL character`);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH)
      throw new DomainError(CommonErrors.unsafe_input, `The ${where} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (k.includes('\u0000')) throw new DomainError(CommonErrors.unsafe_input, `The ${where} contains a NUL character`);
      if (isPrototypeKey(k)) throw new DomainError(CommonErrors.unsafe_input, `The ${where} contains the reserved key "${k}"`);
      stack.push({ v: child, depth: depth + 1 });
    }
  }
}
