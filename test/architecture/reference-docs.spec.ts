import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The references a newcomer reads in minutes, with the length each may reach. */
const REFERENCES: Record<string, number> = {
  'docs/performance.md': 400,
  'docs/decisions.md': 600,
  'docs/scaling.md': 200,
};

/** A dated entry: a calendar date outside code (examples of a date format live in code spans). */
const DATED = /\b20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/;

const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

describe('the reference documents stay references (history is in git)', () => {
  it.each(Object.entries(REFERENCES))('%s has at most %i lines and no dated entry', (file, max) => {
    const text = readFileSync(join(root, file), 'utf8');
    const dated = prose(text)
      .split('\n')
      .flatMap((line, i) => (DATED.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 80)}`] : []));
    expect({ lines: text.split('\n').length - 1 <= max, dated }).toEqual({ lines: true, dated: [] });
  });

  it('a dated line outside code is found, a date in a code span is not', () => {
    expect(DATED.test(prose('Measured on 2026-11-27.'))).toBe(true);
    expect(DATED.test(prose('A daily period is `2026-12-02`.'))).toBe(false);
  });
});
