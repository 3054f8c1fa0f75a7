import { StoppedClock } from '../../common/cache/cache.spec-kit.js';
import { MemoryRateLimitStore } from './rate-limit-store.js';

describe('MemoryRateLimitStore', () => {
  it('counts hits in a fixed window, blocks past the limit for the block time, then starts a new window', async () => {
    const clock = new StoppedClock();
    const store = new MemoryRateLimitStore(clock);
    expect(await store.increment('k', 1_000, 2, 5_000)).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
    expect((await store.increment('k', 1_000, 2, 5_000)).isBlocked).toBe(false);
    expect(await store.increment('k', 1_000, 2, 5_000)).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 5 });
    expect((await store.increment('other', 1_000, 2, 5_000)).isBlocked).toBe(false);
    clock.ms += 4_000;
    expect(await store.increment('k', 1_000, 2, 5_000)).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
    clock.ms += 1_000;
    expect(await store.increment('k', 1_000, 2, 5_000)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps counting the key a client keeps hitting while a flood of new keys passes the bound', async () => {
    const clock = new StoppedClock();
    const store = new MemoryRateLimitStore(clock);
    await store.increment('victim', 60_000, 5, 60_000);
    for (let i = 0; i < 250_000; i++) {
      await store.increment(`flood-${i}`, 60_000, 5, 60_000);
      if (i % 50_000 === 0) await store.increment('victim', 60_000, 5, 60_000);
    }
    expect((store as unknown as { entries: { size: number } }).entries.size).toBeLessThanOrEqual(200_000);
    expect(await store.increment('victim', 60_000, 5, 60_000)).toMatchObject({ totalHits: 6, isBlocked: true });
  });

  it('takes back a hit without going below zero, and keeps a block the hits caused', async () => {
    const clock = new StoppedClock();
    const store = new MemoryRateLimitStore(clock);
    await store.increment('k', 1_000, 2, 5_000);
    await store.increment('k', 1_000, 2, 5_000);
    await store.refund('k');
    expect(await store.increment('k', 1_000, 2, 5_000)).toMatchObject({ totalHits: 2, isBlocked: false });
    await store.refund('nothing-here');
    await store.refund('nothing-here');
    expect(await store.increment('nothing-here', 1_000, 2, 5_000)).toMatchObject({ totalHits: 1 });
    expect(store.blocked('k')).toBeUndefined();
    await store.increment('k', 1_000, 2, 5_000);
    expect(store.blocked('k')).toMatchObject({ isBlocked: true, timeToBlockExpire: 5 });
    await store.refund('k');
    expect((await store.increment('k', 1_000, 2, 5_000)).isBlocked).toBe(true);
  });
});
