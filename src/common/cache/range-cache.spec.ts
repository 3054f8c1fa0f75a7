import { fakeDataSource, StoppedClock } from './cache.spec-kit.js';
import { coalesce, RangeCache, RANGES_PER_DROP, rangeOf } from './range-cache.js';
import { EVERY_SCOPE } from './read-cache.js';

describe('RangeCache', () => {
  let clock: StoppedClock;
  let db: ReturnType<typeof fakeDataSource>;
  let cache: RangeCache<{ v: number }>;
  let loads: number;
  let version: number;

  beforeEach(() => {
    clock = new StoppedClock();
    db = fakeDataSource();
    cache = new RangeCache({ ttlMs: 1000, max: 100, clock, dataSource: db.dataSource });
    loads = 0;
    version = 1;
  });

  /** A value of board b that shows the scores lo..hi, owned by `owner`. */
  const read = (key: string, lo: number, hi: number, owner: string | null = null, board = 'b') =>
    cache.get(board, key, owner, async () => {
      loads++;
      return { value: { v: version }, lo, hi };
    });

  it('keeps a value until its TTL', async () => {
    await read('k', 10, 20);
    version = 2;
    expect(await read('k', 10, 20)).toEqual({ v: 1 });
    clock.ms += 1001;
    expect(await read('k', 10, 20)).toEqual({ v: 2 });
    expect(loads).toBe(2);
  });

  it('a move forgets only the values whose scores it meets (bounds included)', async () => {
    await read('low', 1, 5);
    await read('mid', 10, 20);
    await read('high', 30, 40);
    version = 2;
    cache.dropHere(RangeCache.range('b', 25, 20)); // meets mid at 20 only
    expect(await read('low', 1, 5)).toEqual({ v: 1 });
    expect(await read('mid', 10, 20)).toEqual({ v: 2 });
    expect(await read('high', 30, 40)).toEqual({ v: 1 });
    cache.dropHere(RangeCache.range('b', 0.5, 1));
    expect(await read('low', 1, 5)).toEqual({ v: 2 });
  });

  it('a move across a whole value forgets it; a move above or below it does not', async () => {
    await read('mid', 10, 20);
    cache.dropHere(RangeCache.range('b', 21, 99));
    cache.dropHere(RangeCache.range('b', 1, 9));
    version = 2;
    expect(await read('mid', 10, 20)).toEqual({ v: 1 });
    cache.dropHere(RangeCache.range('b', 5, 25));
    expect(await read('mid', 10, 20)).toEqual({ v: 2 });
  });

  it('other boards, the whole board, an owner and every scope', async () => {
    await read('mine', 10, 20, 'u1');
    await read('theirs', 10, 20, 'u2');
    await read('empty', Infinity, -Infinity); // no score: only the whole board concerns it
    await read('elsewhere', 10, 20, null, 'other');
    version = 2;
    cache.dropHere(RangeCache.range('b', 0, 1000));
    expect(await read('empty', Infinity, -Infinity)).toEqual({ v: 1 });
    expect(await read('elsewhere', 10, 20, null, 'other')).toEqual({ v: 1 });
    version = 3;
    await read('mine', 10, 20, 'u1');
    await read('theirs', 10, 20, 'u2');
    version = 4;
    cache.dropHere(RangeCache.owner('b', 'u1'));
    expect(await read('mine', 10, 20, 'u1')).toEqual({ v: 4 });
    expect(await read('theirs', 10, 20, 'u2')).toEqual({ v: 3 });
    version = 5;
    cache.dropHere('b');
    expect(await read('empty', Infinity, -Infinity)).toEqual({ v: 5 });
    expect(await read('elsewhere', 10, 20, null, 'other')).toEqual({ v: 1 });
    cache.dropHere(EVERY_SCOPE);
    expect(await read('elsewhere', 10, 20, null, 'other')).toEqual({ v: 5 });
  });

  it('a load that a drop overtook is answered but not kept; one the drop does not concern is kept', async () => {
    let release!: () => void;
    const slow = (key: string, lo: number, hi: number) =>
      cache.get('b', key, null, async () => {
        loads++;
        const v = version;
        await new Promise<void>((r) => (release = r));
        return { value: { v }, lo, hi };
      });
    const p = slow('k', 10, 20);
    cache.dropHere(RangeCache.range('b', 15, 16));
    version = 2;
    release();
    expect(await p).toEqual({ v: 1 });
    expect(await read('k', 10, 20)).toEqual({ v: 2 }); // not kept: loaded again

    const q = slow('far', 100, 200);
    cache.dropHere(RangeCache.range('b', 15, 16));
    release();
    await q;
    version = 3;
    expect(await read('far', 100, 200)).toEqual({ v: 2 }); // kept
  });

  it('readers after a drop do not join a load that began before it', async () => {
    let release!: () => void;
    const p = cache.get('b', 'k', null, async () => {
      loads++;
      await new Promise<void>((r) => (release = r));
      return { value: { v: 1 }, lo: 10, hi: 20 };
    });
    const first = release;
    cache.dropHere('b');
    version = 2;
    const q = read('k', 10, 20);
    first();
    expect(await p).toEqual({ v: 1 });
    expect(await q).toEqual({ v: 2 });
    expect(loads).toBe(2);
  });

  it('drops queued in a transaction happen at its commit, not at a rollback; many ranges of a board fold into the board', async () => {
    await read('k', 10, 20);
    await read('far', 500, 600);
    version = 2;
    const tx = db.transaction();
    cache.dropAfterCommit(tx.em, RangeCache.range('b', 12, 13));
    expect(await read('k', 10, 20)).toEqual({ v: 1 });
    tx.commit();
    expect(await read('k', 10, 20)).toEqual({ v: 2 });

    const rolled = db.transaction();
    cache.dropAfterCommit(rolled.em, 'b');
    rolled.rollback();
    expect(await read('far', 500, 600)).toEqual({ v: 1 });

    const batch = db.transaction();
    for (let i = 0; i <= RANGES_PER_DROP; i++) cache.dropAfterCommit(batch.em, RangeCache.range('b', i, i + 1));
    batch.commit();
    expect(await read('far', 500, 600)).toEqual({ v: 2 });
  });

  it('coalesce keeps a few ranges, folds many, and the board wins', () => {
    const few = [RangeCache.range('b', 1, 2), RangeCache.owner('b', 'u')];
    expect(coalesce(few)).toEqual(few);
    expect(coalesce([...few, 'b'])).toEqual(['b']);
    const many = Array.from({ length: RANGES_PER_DROP + 1 }, (_, i) => RangeCache.range('b', i, i));
    expect(coalesce([...many, RangeCache.range('c', 1, 2)])).toEqual(['b', RangeCache.range('c', 1, 2)]);
  });

  it('a scope it cannot read drops the whole board (a message of another version)', async () => {
    await read('k', 10, 20);
    await read('far', 500, 600);
    version = 2;
    cache.dropHere('b|x|y');
    expect(await read('far', 500, 600)).toEqual({ v: 2 });
  });

  it('tells onDrop of its own drops only', () => {
    const told: string[] = [];
    const c = new RangeCache({ ttlMs: 1000, max: 10, clock, dataSource: db.dataSource, onDrop: (s) => told.push(s) });
    c.drop('b');
    c.dropHere('c');
    expect(told).toEqual(['b']);
  });

  it('rangeOf: the lowest and highest score; none for no score', () => {
    expect(rangeOf([5, 1, 9])).toEqual({ lo: 1, hi: 9 });
    expect(rangeOf([])).toEqual({ lo: Infinity, hi: -Infinity });
  });

  it('with ttlMs 0 it loads every time', async () => {
    cache = new RangeCache({ ttlMs: 0, max: 100, clock, dataSource: db.dataSource });
    await read('k', 1, 2);
    await read('k', 1, 2);
    expect(loads).toBe(2);
  });
});
