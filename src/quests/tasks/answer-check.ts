import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AnswerSettings, AnswerSpaces } from './task-kinds.js';

/** The longest answer a player may send, before normalisation. */
export const MAX_ANSWER_LENGTH = 500;

export interface AnswerRules {
  caseSensitive: boolean;
  spaces: AnswerSpaces;
  ignoreAccents: boolean;
}

/**
 * An answer as it is compared: Unicode NFKC (full-width and compatibility forms as their plain
 * letters), accents dropped when `ignoreAccents`, white space as `spaces` says (`exact`, `trim` the
 * ends, `collapse` runs to one space and trim, `remove` all), lower case unless `caseSensitive`
 * (locale-independent, so a Turkish dotless i does not match an i).
 */
export function normaliseAnswer(answer: string, rules: AnswerRules): string {
  let s = answer.normalize('NFKC');
  if (rules.ignoreAccents) s = s.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC');
  switch (rules.spaces) {
    case 'trim':
      s = s.trim();
      break;
    case 'collapse':
      s = s.replace(/\s+/gu, ' ').trim();
      break;
    case 'remove':
      s = s.replace(/\s+/gu, '');
      break;
    case 'exact':
      break;
  }
  return rules.caseSensitive ? s : s.toLowerCase();
}

const hashOf = (salt: string, normalised: string) => createHash('sha256').update(salt).update('\0').update(normalised).digest('hex');

/** The stored form of a task's answers: salted SHA-256 of each normalised answer (the salt is the task's). */
export function hashAnswers(
  answers: string[],
  rules: AnswerRules,
  salt = randomBytes(16).toString('hex'),
): Pick<AnswerSettings, 'salt' | 'answerHashes'> {
  return { salt, answerHashes: [...new Set(answers.map((a) => hashOf(salt, normaliseAnswer(a, rules))))] };
}

/** Whether `answer` is one of the task's, compared in constant time per stored hash. */
export function answerMatches(answer: string, settings: AnswerSettings): boolean {
  const given = Buffer.from(hashOf(settings.salt, normaliseAnswer(answer, settings)), 'hex');
  let match = false;
  for (const h of settings.answerHashes) match = timingSafeEqual(given, Buffer.from(h, 'hex')) || match;
  return match;
}
