import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ESM script of the repository, without types
import { GENERATED, publishedHash, publishedHashes, render } from '../../scripts/published-secrets.mjs';
import { isPublished, secretWeakness } from './secret-strength.js';

describe('secrets published in this repository', () => {
  it('lists every long value of the tests, docs, compose file and scripts (run `npm run secrets:published` when this fails)', () => {
    const committed = readFileSync(GENERATED as string, 'utf8');
    expect(committed).toBe((render as (h: string[]) => string)((publishedHashes as () => string[])()));
  });

  it('refuses, in production, a session secret a test spells out, in any case', () => {
    // test/medium/crypto.medium-spec.ts
    const fromTest = 'a-session-secret-of-the-operator-0123456789';
    expect(readFileSync('test/medium/crypto.medium-spec.ts', 'utf8')).toContain(fromTest);
    expect(isPublished(fromTest)).toBe(true);
    expect(isPublished(fromTest.toUpperCase())).toBe(true);
    expect(secretWeakness('SESSION_SECRET', fromTest)).toMatch(/SESSION_SECRET is a published value/);
    expect((publishedHash as (v: string) => string)(fromTest)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('accepts a fresh random secret', () => {
    const fresh = 'f3c1b0a9d8e7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1'.split('').reverse().join('');
    expect(isPublished(fresh)).toBe(false);
  });
});
