import { answerMatches, hashAnswers, normaliseAnswer } from './answer-check.js';
import type { AnswerSettings } from './task-kinds.js';

const rules = { caseSensitive: false, spaces: 'collapse' as const, ignoreAccents: false };
const settings = (answers: string[], over: Partial<AnswerSettings> = {}): AnswerSettings => {
  const r = { ...rules, ...over };
  return { ...r, ...hashAnswers(answers, r), maxAttempts: null, retryAfterSeconds: 0, ...over };
};

describe('answer checks', () => {
  it('normalises Unicode, spaces and case as the rules say', () => {
    expect(normaliseAnswer('  Ｔｒｅａｓｕｒｅ   Island ', rules)).toBe('treasure island');
    expect(normaliseAnswer(' a  b ', { ...rules, spaces: 'exact' })).toBe(' a  b ');
    expect(normaliseAnswer(' a  b ', { ...rules, spaces: 'trim' })).toBe('a  b');
    expect(normaliseAnswer(' a  b ', { ...rules, spaces: 'remove' })).toBe('ab');
    expect(normaliseAnswer('Café', { ...rules, ignoreAccents: true })).toBe('cafe');
    expect(normaliseAnswer('Café', rules)).toBe('café');
    expect(normaliseAnswer('ABC', { ...rules, caseSensitive: true })).toBe('ABC');
  });

  it('matches any accepted answer in its normal form, and nothing else', () => {
    const s = settings(['Treasure Island', 'the island']);
    expect(answerMatches('treasure   ISLAND', s)).toBe(true);
    expect(answerMatches('The Island', s)).toBe(true);
    expect(answerMatches('treasure', s)).toBe(false);
    expect(answerMatches('', s)).toBe(false);
    const exact = settings(['Pirate'], { caseSensitive: true });
    expect(answerMatches('pirate', exact)).toBe(false);
    expect(answerMatches('Pirate', exact)).toBe(true);
  });

  it('stores salted hashes, never the answers, and the same answer hashes differently in another task', () => {
    const a = hashAnswers(['Kraken'], rules);
    const b = hashAnswers(['Kraken'], rules);
    expect(JSON.stringify(a)).not.toMatch(/kraken/i);
    expect(a.answerHashes[0]).not.toBe(b.answerHashes[0]);
    expect(hashAnswers(['kraken', 'KRAKEN '], rules).answerHashes).toHaveLength(1);
  });
});
