import { createHash } from 'node:crypto';
import { PUBLISHED_SECRET_HASHES } from './published-secrets.js';

/**
 * Secrets that were published in this repository and that no file spells out whole (computed in a
 * test helper, or removed from docker/compose.yml): anyone who read it can forge sessions or
 * decrypt with them. Every value a file spells out is in PUBLISHED_SECRET_HASHES.
 */
const PUBLISHED = new Set(
  [
    'change-me-to-a-long-random-string-of-64-chars-0123456789abcdef',
    '0'.repeat(64),
    `reliability-session-secret-${'x'.repeat(32)}`,
    'a1'.repeat(32),
    'be7c4'.repeat(12) + 'be7c',
  ].map((s) => s.toLowerCase()),
);

/** Whether `value` is written in this repository (a test, the docs, the compose file...), in any case. */
export function isPublished(value: string): boolean {
  const lower = value.toLowerCase();
  return PUBLISHED.has(lower) || PUBLISHED_SECRET_HASHES.has(createHash('sha256').update(lower).digest('hex').slice(0, 16));
}

/** Below these the string is not machine-made randomness (a 128-bit hex key estimates 92 bits or more). */
const MIN_BITS_PER_CHARACTER = 2.5;
const MIN_ESTIMATED_BITS = 80;

/** Shannon entropy of the string's own character frequencies, in bits per character. */
function bitsPerCharacter(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** The shortest p such that the string is a prefix of length p repeated (p ≤ length / 2), or 0. */
function repeatedPeriod(s: string): number {
  for (let p = 1; p <= s.length / 2; p++) {
    let repeats = true;
    for (let i = p; i < s.length && repeats; i++) repeats = s[i] === s[i - p];
    if (repeats) return p;
  }
  return 0;
}

/**
 * Why a configured secret must not be used in production, or undefined when it may. An estimate,
 * not a proof: it refuses published values, repeated characters and patterns, and strings whose
 * character frequencies carry too little entropy; a human-chosen phrase can still pass.
 */
export function secretWeakness(name: string, value: string): string | undefined {
  const make = 'generate one with `openssl rand -hex 32` (see README)';
  if (isPublished(value)) return `${name} is a published value (from this repository); ${make}`;
  if (new Set(value).size === 1) return `${name} is one character repeated; ${make}`;
  const period = repeatedPeriod(value);
  if (period > 0) return `${name} repeats a pattern of ${period} characters; ${make}`;
  const perCharacter = bitsPerCharacter(value);
  const total = perCharacter * value.length;
  if (perCharacter < MIN_BITS_PER_CHARACTER || total < MIN_ESTIMATED_BITS) {
    return `${name} has too little entropy (about ${Math.round(total)} bits estimated from its characters); ${make}`;
  }
  return undefined;
}
