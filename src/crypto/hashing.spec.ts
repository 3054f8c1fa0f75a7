import { hashPassword, verifyPassword, sha256Hex, randomToken } from './hashing.js';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('s3cret-passphrase', 1024);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    await expect(verifyPassword('s3cret-passphrase', stored)).resolves.toBe(true);
    await expect(verifyPassword('s3cret-passphrasE', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same', 1024)).not.toEqual(await hashPassword('same', 1024));
  });

  it('never matches a malformed stored hash', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', 'bcrypt$1$2$3$4$5')).resolves.toBe(false);
  });

  it('hashes tokens with sha256 and makes prefixed random tokens', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const a = randomToken('rt');
    expect(a).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(randomToken('rt')).not.toEqual(a);
  });
});
