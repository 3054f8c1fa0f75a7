import { LRUCache } from 'lru-cache';
import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../clock/clock.js';

export interface ReadCacheOptions<C, V> {
  /** How long a value is served, in milliseconds. 0: never cached, every call loads. */
  ttlMs: number;
  /** Values kept (the least recently used go first). */
  max: number;
  clock: Clock;
  /** Its commits drop the scopes that `dropAfterCommit` marked in their transactions. */
  dataSource: DataSource;
  load: (context: C) => Promise<V>;
  /** Told of every scope this process drops (to tell the other processes: CacheBus). */
  onDrop?: (scope: string) => void;
}

/** Key in `QueryRunner.data`: the scopes to drop at the transaction's commit, per cache. */
const PENDING = 'readCachePendingDrops';
type Pending = Map<object, Set<string>>;

/**
 * A per-process read-through cache for data that is the same for every caller (a leaderboard page,
 * the ids of a filtered list): values expire after `ttlMs`; concurrent misses of one key share one
 * load; a scope (e.g. a resource type, a tenant) is dropped at once by writes through this process.
 * Writes through other processes show within `ttlMs`.
 *
 * A scope is dropped by bumping its generation, which is part of every key: a load that started
 * before the drop stores its value under the old generation, where nobody looks any more.
 */
export class ReadCache<C, V extends object> {
  private readonly cache?: LRUCache<string, V, unknown>;
  private readonly generations = new Map<string, number>();

  constructor(private readonly options: ReadCacheOptions<C, V>) {
    if (options.ttlMs <= 0) return;
    this.cache = new LRUCache<string, V, unknown>({
      max: options.max,
      ttl: options.ttlMs,
      perf: { now: () => options.clock.now().getTime() },
      ttlResolution: 0, // read the clock on every check (the tests' clock moves by hand)
      fetchMethod: (_key, _stale, { context }) => options.load(context as C),
    });
    // Only the outermost commit counts (a savepoint release leaves the transaction active).
    options.dataSource.subscribers.push({
      afterTransactionCommit: ({ queryRunner: qr }) => {
        const pending = qr.data[PENDING] as Pending | undefined;
        if (qr.isTransactionActive || !pending?.has(this)) return;
        for (const scope of pending.get(this)!) this.drop(scope);
        pending.delete(this);
      },
      afterTransactionRollback: ({ queryRunner: qr }) => {
        if (!qr.isTransactionActive) (qr.data[PENDING] as Pending | undefined)?.delete(this);
      },
    });
  }

  /** The value of `key` in `scope`, loaded with `context` when it is not cached (or not fresh). */
  async get(scope: string, key: string, context: C): Promise<V> {
    if (!this.cache) return this.options.load(context);
    return (await this.cache.fetch(`${scope}\u0000${this.generations.get(scope) ?? 0}\u0000${key}`, { context }))!;
  }

  /** Forgets every value of `scope` now, here and (through `onDrop`) in the other processes. */
  drop(scope: string): void {
    if (!this.cache) return;
    this.dropHere(scope);
    this.options.onDrop?.(scope);
  }

  /** Forgets every value of `scope` in this process only (another process dropped it). */
  dropHere(scope: string): void {
    if (this.cache) this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
  }

  /** Forgets everything in this process (drops that may have been missed). */
  clearHere(): void {
    this.cache?.clear();
  }

  /**
   * Forgets every value of `scope` when the transaction of `em` commits (now, outside one). Not
   * before: a read between the write and the commit would cache the old state under the new
   * generation. After it, no answer of this process is older than its own acknowledged writes.
   */
  dropAfterCommit(em: EntityManager, scope: string): void {
    if (!this.cache) return;
    const qr = em.queryRunner;
    if (!qr?.isTransactionActive) return this.drop(scope);
    const pending = ((qr.data[PENDING] as Pending | undefined) ??= new Map()) as Pending;
    const scopes = pending.get(this) ?? new Set<string>();
    pending.set(this, scopes.add(scope));
  }
}
