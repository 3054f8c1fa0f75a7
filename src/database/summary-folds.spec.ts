import { SummaryFolds } from './summary-folds.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SummaryFolds: summary columns refreshed after commits, coalesced per key', () => {
  it('runs a fold at once, then at most one more per interval however many writes ask for it, per key', async () => {
    const folds = new SummaryFolds();
    const runs: string[] = [];
    const fold = (key: string) => async () => {
      runs.push(key);
      await sleep(10);
      return true;
    };
    // Asks before a fold starts are covered by it (it reads after their commits)...
    for (let i = 0; i < 10; i++) folds.schedule('listing:a', fold('a'));
    folds.schedule('item:b', fold('b'));
    await sleep(5);
    expect(runs.sort()).toEqual(['a', 'b']);
    // ...asks while it runs make one more, an interval after it ends.
    for (let i = 0; i < 50; i++) folds.schedule('listing:a', fold('a'));
    await sleep(30);
    expect(runs.filter((k) => k === 'a')).toHaveLength(1);
    await sleep(300);
    expect(runs.filter((k) => k === 'a')).toHaveLength(2); // one more for all of them
    await sleep(150);
    expect(runs.filter((k) => k === 'a')).toHaveLength(2); // and nothing after
    await folds.onModuleDestroy();
  });

  it('tries again later when the row was busy or the fold failed, and stops on shutdown', async () => {
    const folds = new SummaryFolds();
    let calls = 0;
    folds.schedule('listing:a', async () => ++calls > 1); // busy the first time
    await sleep(50);
    expect(calls).toBe(1);
    await sleep(1_100);
    expect(calls).toBe(2);

    let failures = 0;
    folds.schedule('listing:b', async () => {
      failures++;
      throw new Error('connection lost');
    });
    await sleep(30);
    expect(failures).toBe(1); // logged; the next write of the key retries it
    folds.schedule('listing:b', async () => true);
    await folds.onModuleDestroy();
    folds.schedule('listing:c', async () => {
      throw new Error('not after shutdown');
    });
    await sleep(30);
  });
});
