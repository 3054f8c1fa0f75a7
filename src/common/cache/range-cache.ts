import { LRUCache } from 'lru-cache';
import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../clock/clock.js';
import { dropAtCommit, dropsAtCommit } from './commit-drops.js';
import { RangeIndex } from './range-index.js';
import { EVERY_SCOPE } from './read-cache.js';
import { upTo } from './up-to.js';

/**
 * A value read from a board of scores and the scores it depends on: it can only change when a
 * score in `[lo, hi]` is crossed or entered (lo > hi: no score, e.g. an unranked player's answer).
 */
export interface Ranged<V> {
  value: V;
  lo: number;
  hi: number;
}

export interface RangeCacheOptions {
  ttlMs: number;
  /** How long a value stored now is kept, when not `ttlMs` (read at each store). */
  ttlFor?: () => number;
  max: number;
  clock: Clock;
  dataSource: DataSource;
  onDrop?: (scope: string) => void;
}

/** What one drop forgets: the board's values whose range meets `[lo, hi]`, or those of `owner`. */
interface Drop {
  seq: number;
  board: string;
  lo: number;
  hi: number;
  owner: string | null;
}

interface Entry<V> extends Ranged<V> {
  board: string;
  owner: string | null;
}

/** Drops remembered for the loads still running when they came (a load older than these is not kept). */
const RECENT_DROPS = 512;
/** More ranges of one board than this in one commit (a batch of grants) drop the whole board once. */
export const RANGES_PER_DROP = 16;
const EMPTY = { lo: Infinity, hi: -Infinity };

function meets(d: Drop, e: { board: string; owner: string | null; lo: number; hi: number }): boolean {
  if (d.board === EVERY_SCOPE) return true;
  if (d.board !== e.board) return false;
  return d.owner !== null ? d.owner === e.owner : d.lo <= e.hi && d.hi >= e.lo;
}

/**
 * A per-process read cache of values computed from boards of scores (leaderboard pages, players'
 * rankings), like `ReadCache` (READ_CACHE_MS, drops at commit, the cache bus) but dropped finely:
 * a change of one player's score from `a` to `b` forgets only the values whose score range meets
 * `[min(a, b), max(a, b)]`. Under a steady stream of small grants on a large board, a page or a
 * ranking far from every changed score stays cached, where a drop of the whole board would forget
 * it on every grant.
 *
 * Why that is exact: a value lists scores in `[lo, hi]` and the number of players above `hi`. A
 * player moving between two scores both above `hi` (or both below `lo`) changes neither. Entering
 * or leaving the board changes its total, so callers drop the whole board then (`board`).
 *
 * Drops are scope strings (so the cache bus carries them): `board`, `range(board, lo, hi)`,
 * `owner(board, who)` (the values a player owns: their ranking shows their balance) or EVERY_SCOPE.
 * A load that began before a drop that concerns it is returned but not kept.
 */
export class RangeCache<V extends object> {
  private readonly cache?: LRUCache<string, Entry<V>>;
  /** The entries of each board, for drops: found through the board's index, not through the LRU. */
  private readonly byBoard = new Map<string, RangeIndex<Entry<V>>>();
  private readonly loading = new Map<string, Map<string, Promise<V>>>();
  private readonly recent: Drop[] = [];
  private seq = 0;

  constructor(private readonly options: RangeCacheOptions) {
    if (options.ttlMs <= 0) return;
    this.cache = new LRUCache<string, Entry<V>>({
      ...upTo(options.max),
      ttl: options.ttlMs,
      perf: { now: () => options.clock.nowMs() },
      ttlResolution: 0,
      dispose: (entry, key) => {
        const entries = this.byBoard.get(entry.board);
        if (!entries) return;
        entries.remove(key, entry);
        if (entries.size === 0) this.byBoard.delete(entry.board);
      },
    });
    dropsAtCommit(options.dataSource, this, (scopes) => {
      for (const scope of coalesce(scopes)) this.drop(scope);
    });
  }

  static range(board: string, from: number, to: number): string {
    return `${board}|${Math.min(from, to)}|${Math.max(from, to)}`;
  }

  static owner(board: string, who: string): string {
    return `${board}|@${who}`;
  }

  /** The value of `key` on `board` (owned by `owner`, if a player's own), loaded when not cached. */
  async get(board: string, key: string, owner: string | null, load: () => Promise<Ranged<V>>): Promise<V> {
    if (!this.cache) return (await load()).value;
    const full = `${board}\u0000${key}`;
    const hit = this.cache.get(full);
    if (hit) return hit.value;
    let loads = this.loading.get(board);
    const running = loads?.get(full);
    if (running) return running;
    const since = this.seq;
    const p = load()
      .then((r) => {
        // Built field by field: an object made by spreading is slow to read, and drops read every entry.
        this.keep(full, { value: r.value, lo: r.lo, hi: r.hi, board, owner }, since);
        return r.value;
      })
      .finally(() => {
        if (this.loading.get(board)?.get(full) === p) this.loading.get(board)!.delete(full);
      });
    if (!loads) this.loading.set(board, (loads = new Map<string, Promise<V>>()));
    loads.set(full, p);
    return p;
  }

  private keep(full: string, e: Entry<V>, since: number): void {
    if (this.seq > since) {
      // Drops came while it loaded: keep it only if none concerns it and none was forgotten.
      if (this.recent.length === 0 || this.recent[0].seq > since + 1) return;
      for (const d of this.recent) if (d.seq > since && meets(d, e)) return;
    }
    this.cache!.set(full, e, this.options.ttlFor ? { ttl: this.options.ttlFor() } : undefined);
    let entries = this.byBoard.get(e.board);
    if (!entries) this.byBoard.set(e.board, (entries = new RangeIndex<Entry<V>>()));
    entries.add(full, e);
  }

  /** Forgets what `scope` names now, here and (through `onDrop`) in the other processes. */
  drop(scope: string): void {
    if (!this.cache) return;
    this.dropHere(scope);
    this.options.onDrop?.(scope);
  }

  /** Forgets what `scope` names in this process only (another process dropped it). */
  dropHere(scope: string): void {
    if (!this.cache) return;
    const d = parse(scope, ++this.seq);
    this.recent.push(d);
    if (this.recent.length > RECENT_DROPS) this.recent.shift();
    if (d.board === EVERY_SCOPE) {
      this.loading.clear();
      this.cache.clear();
      return;
    }
    // Later readers start a load of their own rather than wait for one this drop may concern.
    this.loading.delete(d.board);
    const entries = this.byBoard.get(d.board);
    if (!entries) return;
    // The keys first, then the deletes (each one's dispose updates the index).
    const keys = d.owner !== null ? entries.ownedBy(d.owner) : entries.meeting(d.lo, d.hi);
    for (const key of keys) this.cache.delete(key);
  }

  /** Forgets everything in this process (drops that may have been missed). */
  clearHere(): void {
    this.dropHere(EVERY_SCOPE);
  }

  /** Drops `scope` when the transaction of `em` commits (now, outside one); see `ReadCache.dropAfterCommit`. */
  dropAfterCommit(em: EntityManager, scope: string): void {
    if (!this.cache) return;
    dropAtCommit(em, this, scope, (sc) => this.drop(sc));
  }
}

/** The scopes to drop for these, each board's ranges folded into the whole board when there are many. */
export function coalesce(scopes: Iterable<string>): string[] {
  const byBoard = new Map<string, string[]>();
  for (const scope of scopes) {
    const board = scope.split('|')[0];
    const list = byBoard.get(board);
    if (list) list.push(scope);
    else byBoard.set(board, [scope]);
  }
  return [...byBoard].flatMap(([board, list]) => (list.length > RANGES_PER_DROP || list.includes(board) ? [board] : list));
}

function parse(scope: string, seq: number): Drop {
  const [board, a, b] = scope.split('|');
  if (a === undefined) return { seq, board, lo: -Infinity, hi: Infinity, owner: null };
  if (a.startsWith('@')) return { seq, board, lo: EMPTY.lo, hi: EMPTY.hi, owner: a.slice(1) };
  const lo = Number(a);
  const hi = Number(b);
  // Not a range this process can read (another version's message): the whole board.
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { seq, board, lo: -Infinity, hi: Infinity, owner: null };
  return { seq, board, lo, hi, owner: null };
}

/** The range of a value computed from these scores (none: depends on no score). */
export function rangeOf(scores: readonly number[]): { lo: number; hi: number } {
  if (scores.length === 0) return { lo: EMPTY.lo, hi: EMPTY.hi };
  return { lo: Math.min(...scores), hi: Math.max(...scores) };
}
