import { bucketChanges, rangesAbove } from './rank-buckets.js';

/** Applies changes to an in-memory counter table, then counts "above" with rangesAbove. */
function simulate(scores: bigint[]) {
  const counts = new Map<string, number>();
  for (const s of scores) {
    for (const c of bucketChanges(0n, s)) counts.set(`${c.level}:${c.bucket}`, (counts.get(`${c.level}:${c.bucket}`) ?? 0) + c.delta);
  }
  const above = (s: bigint) => {
    let n = 0;
    for (const r of rangesAbove(s))
      for (const [k, v] of counts) {
        const [lvl, b] = k.split(':');
        if (Number(lvl) === r.level && BigInt(b) >= r.from && BigInt(b) <= r.to) n += v;
      }
    return n;
  };
  return { counts, above };
}

describe('rank buckets', () => {
  it('counts exactly the scores strictly above, for any score', () => {
    const scores = [1n, 5n, 15n, 16n, 17n, 255n, 256n, 4095n, 4096n, 70000n, 70000n, 123456789n, 2n ** 52n + 3n];
    const { above } = simulate(scores);
    for (const s of [0n, 1n, 2n, 15n, 16n, 100n, 255n, 256n, 4096n, 69999n, 70000n, 123456789n, 2n ** 52n]) {
      expect(above(s)).toBe(scores.filter((x) => x > s).length);
    }
  });

  it('matches a brute-force count on random scores', () => {
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    const scores = Array.from({ length: 300 }, () => BigInt(rnd() % 100000) + 1n);
    const { above } = simulate(scores);
    for (let i = 0; i < 50; i++) {
      const s = BigInt(rnd() % 100001);
      expect(above(s)).toBe(scores.filter((x) => x > s).length);
    }
  });

  it('moving a score removes it from the old buckets and adds it to the new ones', () => {
    const changes = bucketChanges(10n, 20n);
    expect(changes).toEqual([
      { level: 0, bucket: 10n, delta: -1 },
      { level: 0, bucket: 20n, delta: 1 },
      { level: 1, bucket: 1n, delta: 1 },
    ]);
    expect(bucketChanges(20n, 0n).every((c) => c.delta === -1)).toBe(true);
    expect(bucketChanges(7n, 7n)).toEqual([]);
  });
});
