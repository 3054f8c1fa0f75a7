import fc from 'fast-check';
import { RangeIndex, type Indexed } from './range-index.js';

/** What a walk of every value finds (the index must find exactly these). */
const walk = (values: Map<string, Indexed>, lo: number, hi: number) =>
  [...values].filter(([, e]) => e.lo <= hi && e.hi >= lo).map(([k]) => k);

describe('RangeIndex', () => {
  const score = fc.oneof(
    fc.integer({ min: -50, max: 5_000 }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    fc.double({ min: -10, max: 10, noNaN: true }),
  );
  const value = fc.record({
    lo: score,
    width: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.constant(-1),
      fc.constant(Infinity),
    ),
    owner: fc.option(fc.constantFrom('u1', 'u2', 'u3'), { nil: null }),
  });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), key: fc.integer({ min: 0, max: 30 }), v: value }),
    fc.record({ kind: fc.constant('remove' as const), key: fc.integer({ min: 0, max: 30 }) }),
    fc.record({
      kind: fc.constant('drop' as const),
      lo: score,
      width: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 2 ** 45 })),
    }),
  );

  it('finds exactly the values a walk of all of them finds, through adds, replacements and removals', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const index = new RangeIndex<Indexed>();
        const model = new Map<string, Indexed>();
        for (const o of ops) {
          const key = `k${'key' in o ? o.key : ''}`;
          if (o.kind === 'add') {
            // A width of -1 is a value that shows no score (`rangeOf([])`); Infinity an unbounded one.
            const e =
              o.v.width === -1
                ? { lo: Infinity, hi: -Infinity, owner: o.v.owner }
                : { lo: o.v.lo, hi: o.v.lo + o.v.width, owner: o.v.owner };
            // Replaced with or without removing the old value first (add must do it then).
            const old = model.get(key);
            if (old && o.key % 2 === 0) index.remove(key, old);
            index.add(key, e);
            model.set(key, e);
          } else if (o.kind === 'remove') {
            const old = model.get(key);
            if (old) index.remove(key, old);
            model.delete(key);
          } else {
            expect(index.meeting(o.lo, o.lo + o.width).sort()).toEqual(walk(model, o.lo, o.lo + o.width).sort());
          }
          expect(index.size).toBe(model.size);
        }
        for (const owner of ['u1', 'u2', 'u3'])
          expect(index.ownedBy(owner).sort()).toEqual(
            [...model]
              .filter(([, e]) => e.owner === owner)
              .map(([k]) => k)
              .sort(),
          );
        expect(index.meeting(-Infinity, Infinity).sort()).toEqual([...model.keys()].sort());
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a newer value under the same key when an older one is removed', () => {
    const index = new RangeIndex<Indexed>();
    const old = { lo: 1, hi: 2, owner: 'u1' };
    const newer = { lo: 100, hi: 200, owner: 'u1' };
    index.add('k', old);
    index.remove('k', old);
    index.add('k', newer);
    index.remove('k', old);
    expect(index.meeting(150, 150)).toEqual(['k']);
    expect(index.ownedBy('u1')).toEqual(['k']);
  });

  it('a small move looks at the values near it only, not at every value kept', () => {
    const index = new RangeIndex<Indexed>();
    // 20,000 players' rankings (each the scores of a few neighbours) spread over a million points.
    for (let i = 0; i < 20_000; i++) index.add(`r${i}`, { lo: i * 50, hi: i * 50 + 10, owner: `u${i}` });
    let looked = 0;
    const all = index.all;
    const get = all.get.bind(all);
    all.get = (key: string) => (looked++, get(key));
    expect(index.meeting(500_005, 500_060).sort()).toEqual(['r10000', 'r10001']);
    expect(looked).toBeLessThan(10);
  });
});
