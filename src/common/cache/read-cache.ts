import { LRUCache } from 'lru-cache';
import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../clock/clock.js';
import { dropAtCommit, dropsAtCommit } from './commit-drops.js';
import { upTo } from './up-to.js';

export interface ReadCacheOptions<C, V> {
  /** How long a value is served, in milliseconds. 0: never cached, every call loads. */
  ttlMs: number;
  /**
   * How long a value stored now is served, when not `ttlMs` (read at each store; never more than
   * `longestTtlMs`): for a cache whose every change is dropped at its commit (CacheFactory).
   */
  ttlFor?: () => number;
  /** The longest `ttlFor` can answer (default `ttlMs`): how long a scope's drop is remembered depends on it. */
  longestTtlMs?: number;
  /** Values kept (the least recently used go first), each counted as `weigh` says (default 1). */
  max: number;
  /** What one value counts against `max`: its keys, for a cache read with `getGrouped`. */
  weigh?: (value: V) => number;
  clock: Clock;
  /** Its commits drop the scopes that `dropAfterCommit` marked in their transactions. */
  dataSource: DataSource;
  /** How `get` loads a value; a cache read only through `lookup` has none. */
  load?: (context: C) => Promise<V>;
  /** Scopes whose drops are remembered at once (default 100,000; see the class). */
  scopes?: number;
  /** Told of every scope this process drops (to tell the other processes: CacheBus). */
  onDrop?: (scope: string) => void;
}

/** Scopes whose drops are remembered (each for two TTLs): enough for one scope per player. */
const GENERATIONS = 100_000;
/** Forgotten generations are swept after this many drops (expired entries are otherwise kept until evicted). */
const SWEEP_EVERY = 1_000;

/** The scope `drop` takes for "every scope" (scopes are ids and never this). */
export const EVERY_SCOPE = '*';

/**
 * A per-process read-through cache for data that is the same for every caller (a leaderboard page,
 * the ids of a filtered list): values expire after `ttlMs`; concurrent misses of one key share one
 * load; a scope (e.g. a resource type, a tenant) is dropped at once by writes through this process.
 * Writes through other processes show within `ttlMs` (`ttlFor`'s time, for a cache whose every
 * change is dropped at its commit: then the drops carried between processes show them).
 *
 * A scope is dropped by giving it a new generation, which is part of every key: a load that
 * started before the drop stores its value under the old generation, where nobody looks any more.
 * Scopes may be as fine as one player: a scope's generation is forgotten two TTLs after its last
 * drop (every value stored under the generation it had before has expired by then), and when one
 * must be forgotten earlier (too many), every scope without a remembered generation moves to a
 * new one (`floor`), so no value older than a drop can come back.
 */
export class ReadCache<C, V extends object> {
  private readonly cache?: LRUCache<string, V, unknown>;
  private readonly generations?: LRUCache<string, number>;
  private lastGeneration = 0;
  /** The generation of every scope not in `generations`. */
  private floor = 0;
  private dropsSinceSweep = 0;
  /** Part of every key: raised by a drop of EVERY_SCOPE. */
  private epoch = 0;

  constructor(private readonly options: ReadCacheOptions<C, V>) {
    if (options.ttlMs <= 0) return;
    const perf = { now: () => options.clock.nowMs() };
    const load = options.load;
    this.cache = new LRUCache<string, V, unknown>({
      ...upTo(options.max, options.weigh),
      ttl: options.ttlMs,
      perf,
      ttlResolution: 0, // read the clock on every check (the tests' clock moves by hand)
      fetchMethod: load ? (_key, _stale, { context }) => load(context as C) : undefined,
    });
    this.generations = new LRUCache<string, number>({
      ...upTo(options.scopes ?? GENERATIONS),
      ttl: 2 * this.longestTtlMs,
      perf,
      ttlResolution: 0,
      dispose: (generation, _scope, reason) => {
        if (reason === 'evict') this.floor = Math.max(this.floor, generation);
      },
    });
    dropsAtCommit(options.dataSource, this, (scopes) => {
      for (const scope of scopes) this.drop(scope);
    });
  }

  /** The value of `key` in `scope`, loaded with `context` when it is not cached (or not fresh). */
  async get(scope: string, key: string, context: C): Promise<V> {
    const load = this.options.load;
    if (!load) throw new Error('this read cache has no load function: use lookup()');
    if (!this.cache) return load(context);
    return (await this.cache.fetch(this.prefixOf(scope) + key, { context, ttl: this.ttlNow() }))!;
  }

  /**
   * The cached values of `keys` in `scope`, the keys missing, and `store` for the values the
   * caller then loads itself (several in one statement). `store` files them under the generation
   * of the lookup: if the scope was dropped meanwhile, they are never served.
   */
  lookup(scope: string, keys: readonly string[]): { found: Map<string, V>; missing: string[]; store: (values: Map<string, V>) => void } {
    const found = new Map<string, V>();
    if (!this.cache) return { found, missing: [...keys], store: () => undefined };
    const cache = this.cache;
    // Taken now: values loaded after a drop that comes meanwhile go where nobody looks.
    const prefix = this.prefixOf(scope);
    const missing: string[] = [];
    for (const key of keys) {
      const v = cache.get(prefix + key);
      if (v === undefined) missing.push(key);
      else found.set(key, v);
    }
    return {
      found,
      missing,
      store: (values) => {
        const ttl = this.ttlNow();
        for (const [key, v] of values) cache.set(prefix + key, v, { ttl });
      },
    };
  }

  /**
   * The values of `keys` in `scope`, for a cache whose values are the keys of a scope kept
   * together: one entry per scope (a Map by key, `weigh` = its size), so a call makes one cache
   * lookup however many keys it asks for (a player's statuses of a page of events). What is not
   * cached comes from those a concurrent call is loading already (under the same generation: a
   * burst of one client's requests makes one load, not one each), and the rest from one call of
   * `load` (which answers every key it is given). Keys loaded later join their scope's entry
   * without renewing its time to live, so no value is served longer than the entry's.
   */
  async getGrouped<T>(
    this: ReadCache<C, Map<string, T>>,
    scope: string,
    keys: readonly string[],
    load: (missing: string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> {
    const cache = this.cache;
    if (!cache) return load([...keys]);
    // Taken now: keys loaded after a drop that comes meanwhile go where nobody looks.
    const entry = this.prefixOf(scope);
    const group = cache.get(entry);
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const key of keys) {
      const v = group?.get(key);
      if (v === undefined) missing.push(key);
      else found.set(key, v);
    }
    if (missing.length === 0) return found;

    const loading = this.loading as Map<string, Promise<Map<string, T>>>;
    const joined: Promise<Map<string, T>>[] = [];
    const own: string[] = [];
    for (const key of missing) {
      const running = loading.get(entry + key);
      if (running && !joined.includes(running)) joined.push(running);
      else if (!running) own.push(key);
    }
    if (own.length > 0) {
      const p = load(own);
      for (const key of own) loading.set(entry + key, p);
      joined.push(
        p
          .then((loaded) => {
            // A new Map (lru-cache weighs a value again only when it is another object).
            const kept = new Map(cache.get(entry));
            for (const [key, v] of loaded) kept.set(key, v);
            cache.set(entry, kept, { noUpdateTTL: true, ttl: this.ttlNow() });
            return loaded;
          })
          .finally(() => {
            for (const key of own) if (loading.get(entry + key) === p) loading.delete(entry + key);
          }),
      );
    }
    const wanted = new Set(missing);
    for (const loaded of await Promise.all(joined)) for (const [key, v] of loaded) if (wanted.has(key)) found.set(key, v);
    return found;
  }

  /** The longest a value can live. */
  private get longestTtlMs(): number {
    return Math.max(this.options.ttlMs, this.options.longestTtlMs ?? 0);
  }

  /** The time to live of a value stored now. */
  private ttlNow(): number {
    const ttlFor = this.options.ttlFor;
    return ttlFor ? Math.min(ttlFor(), this.longestTtlMs) : this.options.ttlMs;
  }

  /** `getGrouped`'s loads under way, by generation prefix and key. */
  private readonly loading = new Map<string, Promise<Map<string, unknown>>>();

  /** The start of the keys of `scope` now (a drop changes it). */
  private prefixOf(scope: string): string {
    return `${this.epoch}\u0000${scope}\u0000${this.generations?.get(scope) ?? this.floor}\u0000`;
  }

  /** Forgets every value of `scope` (EVERY_SCOPE: of all scopes) now, here and (through `onDrop`) in the other processes. */
  drop(scope: string): void {
    if (!this.cache) return;
    this.dropHere(scope);
    this.options.onDrop?.(scope);
  }

  /** Forgets every value of `scope` in this process only (another process dropped it). */
  dropHere(scope: string): void {
    if (!this.generations) return;
    if (scope === EVERY_SCOPE) {
      this.epoch++;
      return;
    }
    this.generations.set(scope, ++this.lastGeneration);
    if (++this.dropsSinceSweep >= SWEEP_EVERY) {
      this.dropsSinceSweep = 0;
      this.generations.purgeStale();
    }
  }

  /**
   * Forgets everything in this process (drops that may have been missed). A new epoch, not
   * `clear()`: lru-cache's `clear` aborts the loads under way, which would fail the requests
   * waiting on them; their values go under the old epoch, where nobody looks.
   */
  clearHere(): void {
    this.dropHere(EVERY_SCOPE);
  }

  /**
   * Forgets every value of `scope` when the transaction of `em` commits (now, outside one). Not
   * before: a read between the write and the commit would cache the old state under the new
   * generation. After it, no answer of this process is older than its own acknowledged writes.
   */
  dropAfterCommit(em: EntityManager, scope: string): void {
    if (!this.cache) return;
    dropAtCommit(em, this, scope, (sc) => this.drop(sc));
  }
}
