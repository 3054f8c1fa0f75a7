import type { EntityManager } from 'typeorm';
import { fakeDataSource, StoppedClock } from './cache.spec-kit.js';
import { EVERY_SCOPE, ReadCache } from './read-cache.js';

describe('ReadCache', () => {
  let clock: StoppedClock;
  let db: ReturnType<typeof fakeDataSource>;
  let loads: string[];
  let version: number;
  const make = (ttlMs = 1000) =>
    new ReadCache<{ id: string }, { id: string; version: number }>({
      ttlMs,
      max: 100,
      clock,
      dataSource: db.dataSource,
      load: async ({ id }) => {
        loads.push(id);
        return { id, version };
      },
    });

  beforeEach(() => {
    clock = new StoppedClock();
    db = fakeDataSource();
    loads = [];
    version = 1;
  });

  /** A cache whose loads return the version current when they started, once `release` is called. */
  const gated = () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = new ReadCache<{ id: string }, { version: number }>({
      ttlMs: 1000,
      max: 10,
      clock,
      dataSource: db.dataSource,
      load: async () => {
        const seen = version;
        await gate;
        return { version: seen };
      },
    });
    return { cache, release };
  };

  it('serves a value for ttlMs, then loads it again', async () => {
    const cache = make();
    expect(await cache.get('s', 'a', { id: 'a' })).toEqual({ id: 'a', version: 1 });
    version = 2;
    clock.ms += 999;
    expect(await cache.get('s', 'a', { id: 'a' })).toEqual({ id: 'a', version: 1 });
    clock.ms += 2;
    expect(await cache.get('s', 'a', { id: 'a' })).toEqual({ id: 'a', version: 2 });
    expect(loads).toEqual(['a', 'a']);
  });

  it('shares one load among concurrent misses of a key', async () => {
    const cache = make();
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.get('s', 'a', { id: 'a' })));
    expect(new Set(all).size).toBe(1);
    expect(loads).toEqual(['a']);
  });

  it('drops one scope at once and keeps the others', async () => {
    const cache = make();
    await cache.get('s1', 'a', { id: 'a' });
    await cache.get('s2', 'b', { id: 'b' });
    version = 2;
    cache.drop('s1');
    expect((await cache.get('s1', 'a', { id: 'a' })).version).toBe(2);
    expect((await cache.get('s2', 'b', { id: 'b' })).version).toBe(1);
  });

  it('drops a scope changed in a transaction at its outermost commit, not before, not on a rollback', async () => {
    const cache = make();
    await cache.get('s', 'a', { id: 'a' });
    version = 2;

    const tx = db.transaction();
    cache.dropAfterCommit(tx.em, 's');
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(1); // not committed yet
    tx.releaseSavepoint();
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(1); // a savepoint is not the commit
    tx.commit();
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);

    version = 3;
    const failed = db.transaction();
    cache.dropAfterCommit(failed.em, 's');
    failed.rollback();
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);
  });

  it('drops at once outside a transaction', async () => {
    const cache = make();
    await cache.get('s', 'a', { id: 'a' });
    version = 2;
    cache.dropAfterCommit({ queryRunner: undefined } as unknown as EntityManager, 's');
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);
  });

  it('does not keep a value that a load started before a drop returns after it', async () => {
    const { cache, release } = gated();
    const early = cache.get('s', 'a', { id: 'a' });
    version = 2;
    cache.drop('s');
    release();
    expect((await early).version).toBe(1);
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);
  });

  it('clearHere: the requests waiting on a load get its value, and nothing loaded before the clear is served after it', async () => {
    const { cache, release } = gated();
    const kept = cache.get('s', 'b', { id: 'b' });
    release();
    expect((await kept).version).toBe(1);
    const waiting = [cache.get('s', 'a', { id: 'a' }), cache.get('s', 'a', { id: 'a' })];
    version = 2;
    cache.clearHere();
    expect((await Promise.all(waiting)).map((v) => v.version)).toEqual([1, 1]);
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);
    expect((await cache.get('s', 'b', { id: 'b' })).version).toBe(2);
  });

  it('loads every time with ttlMs 0', async () => {
    const cache = make(0);
    await cache.get('s', 'a', { id: 'a' });
    await cache.get('s', 'a', { id: 'a' });
    expect(loads).toEqual(['a', 'a']);
    expect(db.dataSource.subscribers).toHaveLength(0);
  });

  it('lookup: returns what is cached and what is missing; values stored after a drop of their scope are never served', () => {
    const cache = make();
    const first = cache.lookup('s', ['a', 'b']);
    expect(first.missing).toEqual(['a', 'b']);
    first.store(
      new Map([
        ['a', { id: 'a', version: 1 }],
        ['b', { id: 'b', version: 1 }],
      ]),
    );
    const second = cache.lookup('s', ['a', 'b', 'c']);
    expect([...second.found.keys()]).toEqual(['a', 'b']);
    expect(second.missing).toEqual(['c']);
    // A load that began before a drop: what it stores is filed under the old generation.
    const racing = cache.lookup('s', ['c']);
    cache.drop('s');
    racing.store(new Map([['c', { id: 'c', version: 1 }]]));
    expect(cache.lookup('s', ['a', 'c']).missing).toEqual(['a', 'c']);
  });

  describe('getGrouped (the keys of a scope in one entry)', () => {
    type Flag = { id: string; version: number };
    const makeGrouped = (max = 100) =>
      new ReadCache<never, Map<string, Flag>>({ ttlMs: 1000, max, clock, dataSource: db.dataSource, weigh: (group) => group.size });
    let calls: string[][];
    const load = async (missing: string[]) => {
      calls.push(missing);
      return new Map(missing.map((id) => [id, { id, version }]));
    };
    beforeEach(() => {
      calls = [];
    });

    it('loads only the missing keys, in one call, and serves them cached until their scope is dropped', async () => {
      const cache = makeGrouped();
      expect([...(await cache.getGrouped('s', ['a', 'b'], load)).keys()]).toEqual(['a', 'b']);
      const again = await cache.getGrouped('s', ['b', 'c', 'a'], load);
      expect([...again.entries()].map(([k, v]) => [k, v.id])).toEqual([
        ['b', 'b'],
        ['a', 'a'],
        ['c', 'c'],
      ]);
      // Another scope has entries of its own.
      await cache.getGrouped('t', ['a'], load);
      expect(calls).toEqual([['a', 'b'], ['c'], ['a']]);
      version = 2;
      cache.drop('s');
      expect((await cache.getGrouped('s', ['a', 'c'], load)).get('c')).toEqual({ id: 'c', version: 2 });
      expect((await cache.getGrouped('t', ['a'], load)).get('a')).toEqual({ id: 'a', version: 1 });
      expect(calls).toHaveLength(4);
    });

    it('keys that join a scope later do not renew its time to live: nothing is served older than ttlMs', async () => {
      const cache = makeGrouped();
      await cache.getGrouped('s', ['a'], load);
      clock.ms += 900;
      await cache.getGrouped('s', ['a', 'b'], load);
      expect(calls).toEqual([['a'], ['b']]);
      version = 2;
      clock.ms += 101; // a is 1,001 ms old: the scope's entry has expired, b with it
      const later = await cache.getGrouped('s', ['a', 'b'], load);
      expect([...later.values()].map((v) => v.version)).toEqual([2, 2]);
      expect(calls).toEqual([['a'], ['b'], ['a', 'b']]);
    });

    it('counts keys against max: a large scope evicts the least recently used ones', async () => {
      const cache = makeGrouped(4);
      await cache.getGrouped('s', ['a', 'b'], load);
      await cache.getGrouped('t', ['a', 'b'], load);
      await cache.getGrouped('s', ['a'], load); // s is now the most recent
      expect(calls).toHaveLength(2);
      await cache.getGrouped('s', ['c'], load); // s weighs 3: with t's 2, over 4, so t goes
      await cache.getGrouped('s', ['a', 'b', 'c'], load);
      expect(calls).toEqual([['a', 'b'], ['a', 'b'], ['c']]);
      await cache.getGrouped('t', ['a'], load);
      expect(calls).toEqual([['a', 'b'], ['a', 'b'], ['c'], ['a']]);
    });

    it('concurrent calls share the loads under way; values a load returns after a drop are never served', async () => {
      const cache = makeGrouped();
      const releases: (() => void)[] = [];
      const slow = async (missing: string[]) => {
        calls.push(missing);
        const v = version;
        await new Promise<void>((r) => releases.push(r));
        return new Map(missing.map((id) => [id, { id, version: v }]));
      };
      const first = cache.getGrouped('s', ['a', 'b'], slow);
      const second = cache.getGrouped('s', ['b', 'c'], slow); // b joins the first load, c is its own
      expect(calls).toEqual([['a', 'b'], ['c']]);
      version = 2;
      cache.drop('s');
      const third = cache.getGrouped('s', ['a'], slow); // a new generation: a load of its own
      expect(calls).toEqual([['a', 'b'], ['c'], ['a']]);
      for (const release of releases) release();
      expect([...(await first).values()].map((v) => v.version)).toEqual([1, 1]);
      expect([...(await second).entries()].map(([k, v]) => [k, v.version])).toEqual([
        ['b', 1],
        ['c', 1],
      ]);
      expect((await third).get('a')).toEqual({ id: 'a', version: 2 });
      // The first loads finished after the drop: their values went under the old generation.
      const after = await cache.getGrouped('s', ['a', 'b', 'c'], load);
      expect([...after.entries()].map(([k, v]) => [k, v.version])).toEqual([
        ['a', 2],
        ['b', 2],
        ['c', 2],
      ]);
      expect(calls.at(-1)).toEqual(['b', 'c']);
    });

    it('without caching (ttlMs 0) loads every key every time', async () => {
      const cache = new ReadCache<never, Map<string, Flag>>({ ttlMs: 0, max: 100, clock, dataSource: db.dataSource });
      await Promise.all([cache.getGrouped('s', ['a'], load), cache.getGrouped('s', ['a'], load)]);
      expect(calls).toEqual([['a'], ['a']]);
    });
  });

  it('drops every scope with EVERY_SCOPE, and tells the other processes so', async () => {
    const dropped: string[] = [];
    const cache = new ReadCache<{ id: string }, { id: string; version: number }>({
      ttlMs: 1000,
      max: 100,
      clock,
      dataSource: db.dataSource,
      load: async ({ id }) => ({ id, version }),
      onDrop: (scope) => dropped.push(scope),
    });
    await cache.get('s1', 'a', { id: 'a' });
    await cache.get('s2', 'b', { id: 'b' });
    version = 2;
    cache.drop(EVERY_SCOPE);
    expect((await cache.get('s1', 'a', { id: 'a' })).version).toBe(2);
    expect((await cache.get('s2', 'b', { id: 'b' })).version).toBe(2);
    expect(dropped).toEqual([EVERY_SCOPE]);
  });

  it('never serves a value older than a drop whose generation it had to forget (more scopes dropped than it remembers)', async () => {
    const cache = new ReadCache<{ id: string }, { id: string; version: number }>({
      ttlMs: 1000,
      max: 100,
      scopes: 3,
      clock,
      dataSource: db.dataSource,
      load: async ({ id }) => ({ id, version }),
    });
    await cache.get('s1', 'a', { id: 'a' });
    await cache.get('quiet', 'q', { id: 'q' });
    version = 2;
    cache.drop('s1');
    for (const s of ['s2', 's3', 's4', 's5']) cache.drop(s); // s1's generation is evicted
    expect((await cache.get('s1', 'a', { id: 'a' })).version).toBe(2);
    // A scope never dropped may lose its values then (a miss), never get an old one after a drop.
    expect((await cache.get('quiet', 'q', { id: 'q' })).version).toBe(2);
  });

  it('forgets a generation two TTLs after the last drop of its scope, when every older value has expired', async () => {
    const cache = make();
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(1);
    version = 2;
    cache.drop('s');
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(2);
    clock.ms += 2001;
    version = 3;
    expect((await cache.get('s', 'a', { id: 'a' })).version).toBe(3);
  });
});
