import { randomBytes } from 'node:crypto';
import { EncryptionService } from './encryption.service.js';
import type { SecretsService } from './secrets.service.js';

/**
 * The service with a key the test can replace (as a restart with another ENCRYPTION_KEY would),
 * handed out in a new Buffer at every call, as a key read from configuration once was.
 */
const withKey = () => {
  const secrets = { key: randomBytes(32), encryptionKey: () => Promise.resolve(Buffer.from(secrets.key)) };
  return { secrets, encryption: new EncryptionService(secrets as unknown as SecretsService) };
};

describe('EncryptionService', () => {
  it('decrypts what it encrypted only with the same context', async () => {
    const { encryption } = withKey();
    const sealed = await encryption.encrypt('provider-token', 'identity:a:idToken');
    expect(await encryption.decrypt(sealed, 'identity:a:idToken')).toBe('provider-token');
    await expect(encryption.decrypt(sealed, 'identity:b:idToken')).rejects.toThrow();
    expect(await encryption.encrypt('provider-token', 'identity:a:idToken')).not.toBe(sealed);
  });

  it('gives a value stored again unchanged the ciphertext it made for it, and anything else a new one', async () => {
    const { secrets, encryption } = withKey();
    const first = await encryption.encryptRepeated('provider-token', 'identity:a:idToken');
    expect(await encryption.encryptRepeated('provider-token', 'identity:a:idToken')).toBe(first);
    expect(await encryption.decrypt(first, 'identity:a:idToken')).toBe('provider-token');

    const others = [
      await encryption.encryptRepeated('provider-token-2', 'identity:a:idToken'),
      await encryption.encryptRepeated('provider-token', 'identity:a:accessToken'),
      // The context's length is part of the digest: the same characters split otherwise are another pair.
      await encryption.encryptRepeated('c', 'ab'),
      await encryption.encryptRepeated('bc', 'a'),
    ];
    expect(new Set([first, ...others]).size).toBe(5);
    expect(await encryption.decrypt(others[3], 'a')).toBe('bc');
    expect(await encryption.decrypt(others[1], 'identity:a:accessToken')).toBe('provider-token');

    // Another key: nothing made with the old one is given again.
    secrets.key = randomBytes(32);
    const rekeyed = await encryption.encryptRepeated('provider-token', 'identity:a:idToken');
    expect(rekeyed).not.toBe(first);
    expect(await encryption.decrypt(rekeyed, 'identity:a:idToken')).toBe('provider-token');
  });
});
