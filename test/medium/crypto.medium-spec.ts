import { EncryptionService } from '../../src/crypto/encryption.service.js';
import { SecretsService } from '../../src/crypto/secrets.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';

const ENCRYPTION_KEY = 'cd'.repeat(32);
const SESSION_SECRET = 'a-session-secret-of-the-operator-0123456789';

/** The crypto module with configured keys: used as given (nothing generated into app_secrets); ciphertexts bound to their context. */
describe('EncryptionService, SecretsService (medium: CryptoModule with SESSION_SECRET and ENCRYPTION_KEY set)', () => {
  let t: ModuleTest;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [], env: { ENCRYPTION_KEY, SESSION_SECRET } });
  });
  afterAll(() => t?.close());

  it('configured keys are used as given and nothing is generated into the database', async () => {
    const secrets = t.get(SecretsService);
    expect((await secrets.encryptionKey()).toString('hex')).toBe(ENCRYPTION_KEY);
    expect((await secrets.sessionKey()).toString('utf8')).toBe(SESSION_SECRET);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM app_secrets WHERE name IN ('encryption_key', 'session_secret')",
    );
    expect(n).toBe(0);
  });

  it('a ciphertext decrypts only in its context; another version or a truncated one is refused', async () => {
    const encryption = t.get(EncryptionService);
    const sealed = await encryption.encrypt('hello', 'ctx:1');
    expect(sealed).toMatch(/^v1\./);
    expect(await encryption.decrypt(sealed, 'ctx:1')).toBe('hello');
    await expect(encryption.decrypt(sealed, 'ctx:2')).rejects.toThrow();
    await expect(encryption.decrypt(sealed.replace(/^v1\./, 'v2.'), 'ctx:1')).rejects.toThrow('unsupported ciphertext');
    await expect(encryption.decrypt(sealed.split('.').slice(0, 3).join('.'), 'ctx:1')).rejects.toThrow('unsupported ciphertext');
  });
});
