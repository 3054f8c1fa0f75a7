import { parseLsn, WalTimeline } from './replica-reads.js';

describe('parseLsn', () => {
  it('orders WAL positions as PostgreSQL does, across the 32-bit boundary', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });
});

describe('WalTimeline', () => {
  it('a replica is caught up to the newest primary sample at or before its replay position', () => {
    const t = new WalTimeline(10_000);
    t.add(1_000, 100n);
    t.add(1_100, 200n);
    t.add(1_200, 300n);
    expect(t.caughtUpTo(99n)).toBe(-Infinity);
    expect(t.caughtUpTo(100n)).toBe(1_000);
    expect(t.caughtUpTo(250n)).toBe(1_100);
    expect(t.caughtUpTo(300n)).toBe(1_200);
  });

  it('an idle primary (its position unchanged) keeps a replayed replica current', () => {
    const t = new WalTimeline(10_000);
    for (let at = 0; at <= 5_000; at += 100) t.add(at, 500n);
    expect(t.caughtUpTo(500n)).toBe(5_000);
  });

  it('forgets samples older than its window but one, so a replica far behind stays far behind', () => {
    const t = new WalTimeline(1_000);
    for (let at = 0; at <= 10_000; at += 100) t.add(at, BigInt(at));
    // Positions older than the window are gone: the oldest kept is just before it.
    expect(t.caughtUpTo(0n)).toBe(-Infinity);
    expect(t.caughtUpTo(8_950n)).toBe(8_900);
    expect(t.caughtUpTo(10_000n)).toBe(10_000);
  });
});
