import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { Clock } from '../clock/clock.js';
import { RangeCache } from './range-cache.js';
import { ReadCache } from './read-cache.js';

export interface CacheSpec<C, V> {
  /** What the cache holds, for logs and metrics ("community refs", "leaderboard pages"). */
  name: string;
  /** Values kept; the least recently used go first. Default 5,000. */
  max?: number;
  /** What one value counts against `max` (default 1): its keys, for a cache read with `ReadCache.getGrouped`. */
  weigh?: (value: V) => number;
  /** How `get` loads a value; omitted for a cache read only through `ReadCache.lookup`. */
  load?: (context: C) => Promise<V>;
  /**
   * Every change of what it holds is dropped at its commit (`drop`/`dropAfterCommit` on every path
   * that writes it): values then live BOARD_CACHE_MS while the cache bus listens, as boards do.
   */
  droppedOnEveryChange?: boolean;
}

/**
 * The one place read caches are made: every cache of the service lives READ_CACHE_MS (0 turns
 * them all off), reads the service's clock and drops scopes at the commits of this process's
 * writes; CacheBus (database layer) carries those drops to every other process, so another
 * process's writes show within milliseconds, and within READ_CACHE_MS when the bus is down. A service states what it
 * caches and how to load it; how long and how it is invalidated is decided here.
 */
@Injectable()
export class CacheFactory {
  private readonly caches = new Map<string, { dropHere(scope: string): void; clearHere(): void }>();
  /** The caches whose values live longer while the bus listens (`createRanged`, `droppedOnEveryChange`). */
  private readonly keptWhileLinked = new Set<{ clearHere(): void }>();
  /** Whether the cache bus is listening, so every process's drops reach this one. */
  private linked = false;
  private readonly dropListeners: ((cache: string, scope: string) => void)[] = [];
  /** When each cache last had a scope dropped here (by this process's writes or another's), by name. */
  private readonly droppedAt = new Map<string, number>();
  /** When every cache was last cleared here. */
  private clearedAt = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  create<C, V extends object>(spec: CacheSpec<C, V>): ReadCache<C, V> {
    const linked = spec.droppedOnEveryChange ? { ttlFor: this.ttlWhileLinked, longestTtlMs: this.linkedMs } : {};
    const cache = new ReadCache<C, V>({ ...this.common(spec.name), ...linked, max: spec.max ?? 5_000, load: spec.load, weigh: spec.weigh });
    this.caches.set(spec.name, cache);
    if (spec.droppedOnEveryChange) this.keptWhileLinked.add(cache);
    return cache;
  }

  /**
   * A cache of values read from boards of scores, dropped by score ranges (see RangeCache). Every
   * change such a value shows is dropped at its commit (score moves, own balances, renames), so
   * while the bus carries drops between processes they live BOARD_CACHE_MS; READ_CACHE_MS otherwise.
   */
  createRanged<V extends object>(spec: { name: string; max: number }): RangeCache<V> {
    const cache = new RangeCache<V>({ ...this.common(spec.name), max: spec.max, ttlFor: this.ttlWhileLinked });
    this.caches.set(spec.name, cache);
    this.keptWhileLinked.add(cache);
    return cache;
  }

  /** The life of values whose every change is dropped at its commit: BOARD_CACHE_MS while the bus listens. */
  private get linkedMs(): number {
    return Math.max(this.config.READ_CACHE_MS, this.config.BOARD_CACHE_MS);
  }

  private readonly ttlWhileLinked = (): number => (this.linked ? this.linkedMs : this.config.READ_CACHE_MS);

  /**
   * The cache bus started or stopped listening. When it stops, drops of other processes may be
   * missed from now on: the values kept for BOARD_CACHE_MS on the strength of the bus are forgotten.
   */
  setLinked(linked: boolean): void {
    if (this.linked && !linked) {
      this.clearedAt = this.clock.nowMs();
      for (const cache of this.keptWhileLinked) cache.clearHere();
    }
    this.linked = linked;
  }

  private common(name: string) {
    if (this.caches.has(name)) throw new Error(`a read cache named "${name}" exists already`);
    return {
      ttlMs: this.config.READ_CACHE_MS,
      clock: this.clock,
      dataSource: this.dataSource,
      onDrop: (scope: string) => {
        this.droppedAt.set(name, this.clock.nowMs());
        for (const listener of this.dropListeners) listener(name, scope);
      },
    };
  }

  /** Tells `listener` of every scope a cache of this process drops (CacheBus sends them on). */
  onDrop(listener: (cache: string, scope: string) => void): void {
    this.dropListeners.push(listener);
  }

  /** A scope another process dropped: forgotten here too (unknown cache names are ignored). */
  dropHere(cache: string, scope: string): void {
    const c = this.caches.get(cache);
    if (!c) return;
    this.droppedAt.set(cache, this.clock.nowMs());
    c.dropHere(scope);
  }

  /**
   * The last time a value of the cache `name` was dropped or every cache cleared here: a value
   * loaded now must show every write acknowledged before it (a replica that has not replayed up to
   * then would bring the old value back, ReplicaReads).
   */
  lastDropAt(name: string): number {
    return Math.max(this.droppedAt.get(name) ?? 0, this.clearedAt);
  }

  /** Forgets every cached value of this process (after drops may have been missed). */
  clearHere(): void {
    this.clearedAt = this.clock.nowMs();
    for (const cache of this.caches.values()) cache.clearHere();
  }

  /** Whether caching is on (READ_CACHE_MS > 0). */
  get enabled(): boolean {
    return this.config.READ_CACHE_MS > 0;
  }

  /** The names of the caches made so far. */
  names(): string[] {
    return [...this.caches.keys()];
  }
}
