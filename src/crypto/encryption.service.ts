import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { SecretsService } from './secrets.service.js';

/**
 * AES-256-GCM for secrets at rest. Ciphertext format: `v1.<iv>.<tag>.<data>` (base64url).
 * The optional `context` is bound as additional authenticated data, so a ciphertext copied to
 * another row or column does not decrypt.
 */
@Injectable()
export class EncryptionService {
  constructor(private readonly secrets: SecretsService) {}

  /** `encryptRepeated`'s ciphertexts, by a digest of context and value, for the key they were made with. */
  private readonly repeated = new LRUCache<string, string>({ max: 10_000 });
  private repeatedKey?: Buffer;

  /**
   * `encrypt` for a value stored again and again, mostly unchanged (a provider's tokens, written at
   * every login): the ciphertext this process made for the same value and context under the same
   * key is given again instead of a new one. It decrypts like any other; someone reading the stored
   * rows over time learns only that the value did not change. Kept by a digest, never the value.
   */
  async encryptRepeated(plaintext: string, context = ''): Promise<string> {
    const key = await this.secrets.encryptionKey();
    // By its bytes: a key is the same key whichever Buffer holds it.
    if (this.repeatedKey === undefined || !key.equals(this.repeatedKey)) {
      this.repeated.clear();
      this.repeatedKey = key;
    }
    const id = hash('sha256', `${context.length}:${context}${plaintext}`, 'base64url');
    let ciphertext = this.repeated.get(id);
    if (ciphertext === undefined) this.repeated.set(id, (ciphertext = await this.encrypt(plaintext, context)));
    return ciphertext;
  }

  async encrypt(plaintext: string, context = ''): Promise<string> {
    const key = await this.secrets.encryptionKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  async decrypt(ciphertext: string, context = ''): Promise<string> {
    const [version, iv, tag, data] = ciphertext.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unsupported ciphertext');
    const key = await this.secrets.encryptionKey();
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
