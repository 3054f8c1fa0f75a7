/** What the index needs of a cached value: the scores it shows (none: `rangeOf([])`, lo = Infinity > hi) and its owner. */
export interface Indexed {
  lo: number;
  hi: number;
  owner: string | null;
}

/**
 * The values of one board, found by what a drop names, without walking them all: by owner, and
 * by score through a grid per width class. A value of width w (hi - lo) is in class c, the
 * smallest with 2^c > w, in the cell floor(lo / 2^c) of that class; so a value meeting [a, b]
 * sits in one of the cells floor(a / 2^c) - 1 ... floor(b / 2^c) of its class. A drop visits
 * those cells of each class (or, when they are more than the class's cells, the class's cells)
 * and checks each value found exactly. Players' rankings are narrow (a few neighbours' scores),
 * so a small move visits a handful of values instead of every ranking kept.
 */
export class RangeIndex<E extends Indexed> {
  /** Every value, by key. */
  readonly all = new Map<string, E>();
  private readonly owners = new Map<string, Set<string>>();
  /** class -> cell -> keys. */
  private readonly classes = new Map<number, Map<number, Set<string>>>();
  /** Values with an unbounded range (checked on every drop). */
  private readonly unbounded = new Set<string>();

  get size(): number {
    return this.all.size;
  }

  add(key: string, e: E): void {
    // A value under the same key goes first: a key must never sit in two cells.
    const old = this.all.get(key);
    if (old) this.remove(key, old);
    this.all.set(key, e);
    if (e.owner !== null) setOf(this.owners, e.owner).add(key);
    const at = place(e);
    if (at === 'unbounded') this.unbounded.add(key);
    else if (at) setOf(mapOf(this.classes, at.c), at.cell).add(key);
  }

  /** Removes `key` if it still holds `e` (a newer value under the same key stays). */
  remove(key: string, e: E): void {
    if (this.all.get(key) !== e) return;
    this.all.delete(key);
    if (e.owner !== null) unset(this.owners, e.owner, key);
    const at = place(e);
    if (at === 'unbounded') this.unbounded.delete(key);
    else if (at) {
      const cells = this.classes.get(at.c)!;
      unset(cells, at.cell, key);
      if (cells.size === 0) this.classes.delete(at.c);
    }
  }

  /** The keys of the values a player's own drop concerns. */
  ownedBy(owner: string): string[] {
    return [...(this.owners.get(owner) ?? [])];
  }

  /** The keys of the values whose scores meet [lo, hi] (bounds included). */
  meeting(lo: number, hi: number): string[] {
    const out: string[] = [];
    if (!(lo <= hi)) return out;
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return this.collect(this.all.keys(), lo, hi, out);
    this.collect(this.unbounded, lo, hi, out);
    for (const [c, cells] of this.classes) {
      const size = 2 ** c;
      const first = Math.floor(lo / size) - 1;
      const last = Math.floor(hi / size);
      if (last - first + 1 <= cells.size) {
        for (let cell = first; cell <= last; cell++) {
          const keys = cells.get(cell);
          if (keys) this.collect(keys, lo, hi, out);
        }
      } else {
        for (const [cell, keys] of cells) if (cell >= first && cell <= last) this.collect(keys, lo, hi, out);
      }
    }
    return out;
  }

  /** Appends to `out` those of `keys` whose values meet [lo, hi] (no spread: a cell may hold many). */
  private collect(keys: Iterable<string>, lo: number, hi: number, out: string[]): string[] {
    for (const key of keys) {
      const e = this.all.get(key)!;
      if (e.lo <= hi && e.hi >= lo) out.push(key);
    }
    return out;
  }
}

/** Where a value sits: its class and cell, 'unbounded', or null when it shows no score. */
function place(e: Indexed): { c: number; cell: number } | 'unbounded' | null {
  if (!(e.lo <= e.hi)) return null;
  const width = e.hi - e.lo;
  if (!Number.isFinite(width)) return 'unbounded';
  const c = width === 0 ? 0 : Math.ceil(Math.log2(width + 1));
  // 2^c > width also where log2 rounds down at a power of two.
  const cls = 2 ** c > width ? c : c + 1;
  return { c: cls, cell: Math.floor(e.lo / 2 ** cls) };
}

function mapOf<K, V>(m: Map<K, Map<number, V>>, k: K): Map<number, V> {
  let v = m.get(k);
  if (!v) m.set(k, (v = new Map<number, V>()));
  return v;
}

function setOf<K>(m: Map<K, Set<string>>, k: K): Set<string> {
  let v = m.get(k);
  if (!v) m.set(k, (v = new Set<string>()));
  return v;
}

function unset<K>(m: Map<K, Set<string>>, k: K, key: string): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(key);
  if (s.size === 0) m.delete(k);
}
