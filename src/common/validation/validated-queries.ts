import { LRUCache } from 'lru-cache';
import { deepFreeze } from './deep-freeze.js';

/** Distinct query strings remembered per query DTO class. */
const MAX_PER_CLASS = 500;
/** Longer raw queries are validated every time (they are rare, and would crowd the memory). */
const MAX_KEY_LENGTH = 2048;

/**
 * Query DTOs that passed validation, by DTO class and raw query: validating and transforming a
 * list's filters was about a tenth of a cached list request's CPU (docs/performance.md), and the
 * same filters come back from every player paging through the same list. The result depends on
 * nothing but the class and the raw value (the DTOs' validators and transforms are pure), so it is
 * kept, deeply frozen and shared: a handler that changed its query DTO would throw at once rather
 * than change another request's. Refused queries are not kept (they are validated every time).
 */
export class ValidatedQueries {
  private readonly byClass = new WeakMap<object, LRUCache<string, object>>();
  /** The keys of raw queries that cannot change (the parser's shared, frozen ones). */
  private readonly keys = new WeakMap<object, string>();

  /** The DTO validated before from this raw query, or undefined (`key` says where to keep it). */
  lookup(metatype: object, value: unknown): { hit?: object; key?: string } {
    const key = this.keyOf(value);
    if (key === undefined || key.length > MAX_KEY_LENGTH) return {};
    return { hit: this.byClass.get(metatype)?.get(key), key };
  }

  private keyOf(value: unknown): string | undefined {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
    let key = this.keys.get(value);
    // An object's JSON is always a string.
    if (key === undefined) this.keys.set(value, (key = JSON.stringify(value)));
    return key;
  }

  /** Keeps `dto`, frozen, as the validation of the raw query `key` into `metatype`; returns it. */
  keep<T>(metatype: object, key: string, dto: T): T {
    if (typeof dto !== 'object' || dto === null) return dto;
    let memo = this.byClass.get(metatype);
    if (!memo) this.byClass.set(metatype, (memo = new LRUCache<string, object>({ max: MAX_PER_CLASS })));
    memo.set(key, deepFreeze(dto));
    return dto;
  }
}
