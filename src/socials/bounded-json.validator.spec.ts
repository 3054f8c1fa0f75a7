import { boundedJsonObjectProblem } from './bounded-json.validator.js';
import { loadConfig } from '../config/app-config.js';
import { allowedSocialAccountTypes } from './social-account-types.js';

describe('boundedJsonObjectProblem', () => {
  const bounds = { maxBytes: 64, maxDepth: 3 };

  it('accepts small objects up to the depth limit', () => {
    expect(boundedJsonObjectProblem({}, bounds)).toBeNull();
    expect(boundedJsonObjectProblem({ a: { b: [1, 2] } }, bounds)).toBeNull();
  });

  it.each([
    ['an array', [1], /JSON object/],
    ['null', null, /JSON object/],
    ['a string', 'x', /JSON object/],
    ['a number', 1, /JSON object/],
    ['too large', { s: 'x'.repeat(64) }, /at most 64 bytes/],
    ['too deep', { a: { b: { c: {} } } }, /at most 3 levels/],
    ['arrays count as a level', { a: { b: [[1]] } }, /at most 3 levels/],
    ['a NUL character', { a: '\u0000' }, /NUL/],
  ])('refuses %s', (_name, value, message) => {
    expect(boundedJsonObjectProblem(value, bounds)).toMatch(message);
  });

  it('measures bytes, not characters', () => {
    expect(boundedJsonObjectProblem({ s: 'é'.repeat(30) }, bounds)).toMatch(/bytes/);
  });
});

describe('allowedSocialAccountTypes', () => {
  it('adds configured types to the built-in ones, ignoring malformed entries', () => {
    const types = allowedSocialAccountTypes('kick, Bluesky,,bad type!');
    expect(types.has('discord')).toBe(true);
    expect(types.has('kick')).toBe(true);
    expect(types.has('bluesky')).toBe(true);
    expect(types.has('bad type!')).toBe(false);
    expect(allowedSocialAccountTypes(undefined).has('kick')).toBe(false);
  });
});

describe('SOCIAL_ACCOUNT_TYPES setting', () => {
  it('accepts a comma-separated list of lowercase names and refuses anything else at start-up', () => {
    expect(loadConfig({ SOCIAL_ACCOUNT_TYPES: 'kick,bluesky' }).SOCIAL_ACCOUNT_TYPES).toBe('kick,bluesky');
    expect(() => loadConfig({ SOCIAL_ACCOUNT_TYPES: 'Kick, Blue Sky' })).toThrow(/SOCIAL_ACCOUNT_TYPES/);
  });
});
