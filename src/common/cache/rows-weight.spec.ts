import { rowsWeight } from './rows-weight.js';

describe('rowsWeight', () => {
  it('counts a fixed part per row, its text, its string lists by length and other list elements by a fixed part', () => {
    expect(rowsWeight([])).toBe(0);
    const short = { id: 'x'.repeat(36), n: 5, at: new Date(0), description: '' };
    const long = { ...short, description: 'd'.repeat(5_000), tags: ['a'.repeat(64), 'bb'], rewards: [{ amount: 1 }, { amount: 2 }] };
    expect(rowsWeight([short])).toBe(512 + 36);
    expect(rowsWeight([long])).toBe(512 + 36 + 5_000 + 66 + 2 * 64);
    expect(rowsWeight([short, long])).toBe(rowsWeight([short]) + rowsWeight([long]));
  });
});
