import { computeZkLoginAddress } from '@mysten/sui/zklogin';
import { deriveZkLoginSalt } from './zklogin-salt.js';

describe('deriveZkLoginSalt', () => {
  const seed = Buffer.from('11'.repeat(32), 'hex');

  it('is deterministic for the same tenant, provider and subject', () => {
    expect(deriveZkLoginSalt(seed, 't1', 'providerA', 'sub-1')).toBe(deriveZkLoginSalt(seed, 't1', 'providerA', 'sub-1'));
  });

  it('differs when the tenant, provider, subject or seed differ', () => {
    const base = deriveZkLoginSalt(seed, 't1', 'providerA', 'sub-1');
    const others = [
      deriveZkLoginSalt(seed, 't2', 'providerA', 'sub-1'),
      deriveZkLoginSalt(seed, 't1', 'providerD', 'sub-1'),
      deriveZkLoginSalt(seed, 't1', 'providerA', 'sub-2'),
      deriveZkLoginSalt(Buffer.from('22'.repeat(32), 'hex'), 't1', 'providerA', 'sub-1'),
      // no ambiguity from concatenation
      deriveZkLoginSalt(seed, 't1p', 'roviderA', 'sub-1'),
    ];
    for (const o of others) expect(o).not.toBe(base);
  });

  it('stays in the 16-byte range zkLogin requires', () => {
    for (let i = 0; i < 200; i++) {
      const s = deriveZkLoginSalt(seed, 't', 'providerA', `sub-${i}`);
      expect(s >= 0n && s < 2n ** 128n).toBe(true);
    }
  });

  it('matches a pinned value (changing the derivation would move every address)', () => {
    expect(deriveZkLoginSalt(seed, 'tenant', 'providerA', 'subject').toString(16)).toBe('82b6dfda301aa931673ce18679ed8a74');
  });

  it('gives a salt @mysten/sui accepts for an address', () => {
    const userSalt = deriveZkLoginSalt(seed, 't', 'providerA', 'sub');
    const address = computeZkLoginAddress({
      claimName: 'sub',
      claimValue: 'sub',
      iss: 'https://accounts.example.com',
      aud: 'client',
      userSalt,
      legacyAddress: false,
    });
    expect(address).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuses a short master seed', () => {
    expect(() => deriveZkLoginSalt(Buffer.alloc(16), 't', 'p', 's')).toThrow(/32 bytes/);
  });
});
