import { nextBatchEnd } from './season-payout-plan.js';

describe('nextBatchEnd (the places of the next payout batch)', () => {
  const resource = (from: number, to: number) => ({ from, to, oneByOne: false });
  const item = (from: number, to: number) => ({ from, to, oneByOne: true });

  it('takes up to the batch size of resource-only places, never past the last rewarded place', () => {
    expect(nextBatchEnd([resource(1, 10_000)], 0, 10_000, 500, 25)).toBe(500);
    expect(nextBatchEnd([resource(1, 10_000)], 9_800, 10_000, 500, 25)).toBe(10_000);
    expect(nextBatchEnd([resource(1, 3)], 0, 3, 500, 25)).toBe(3);
  });

  it('stops where the item and prize grants would pass their limit per batch', () => {
    // Places 1-100 each get an item: 25 of them per batch.
    expect(nextBatchEnd([resource(1, 10_000), item(1, 100)], 0, 10_000, 500, 25)).toBe(25);
    expect(nextBatchEnd([resource(1, 10_000), item(1, 100)], 75, 10_000, 500, 25)).toBe(575);
    // A prize for 1st and an item for 1st-10th: 11 grants in the first 10 places, then resources only.
    expect(nextBatchEnd([item(1, 1), item(1, 10), resource(1, 1000)], 0, 1000, 500, 25)).toBe(500);
    expect(nextBatchEnd([item(1, 1), item(1, 10), resource(1, 1000)], 0, 1000, 500, 5)).toBe(4);
  });

  it('always moves on by at least one place, even one with more grants than the limit', () => {
    const many = Array.from({ length: 30 }, () => item(1, 1));
    expect(nextBatchEnd(many, 0, 1, 500, 25)).toBe(1);
    expect(nextBatchEnd([...many, resource(1, 50)], 0, 50, 500, 25)).toBe(1);
    expect(nextBatchEnd([resource(1, 50)], 49, 50, 500, 25)).toBe(50);
  });
});
