import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretsService } from './secrets.service.js';

/**
 * AES-256-GCM for secrets at rest. Ciphertext format: `v1.<iv>.<tag>.<data>` (base64url).
 * The optional `context` is bound as additional authenticated data, so a ciphertext copied to
 * another row or column does not decrypt.
 */
@Injectable()
export class EncryptionService {
  constructor(private readonly secrets: SecretsService) {}

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
