import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EncryptionService } from '../crypto/encryption.service.js';
import { upTo } from '../common/cache/up-to.js';

/** The encryption context of a subscription's secrets: a ciphertext cannot be moved to another subscription. */
export const secretContext = (subscriptionId: string) => `webhook-secret:${subscriptionId}`;

/**
 * The signing secrets of a subscription, decrypted once per ciphertext and kept in memory (a
 * rotation writes a new ciphertext, so a stale entry is never used).
 */
@Injectable()
export class WebhookSecrets {
  private readonly plain = new LRUCache<string, string>(upTo(10_000));

  constructor(private readonly encryption: EncryptionService) {}

  encrypt(subscriptionId: string, secret: string): Promise<string> {
    return this.encryption.encrypt(secret, secretContext(subscriptionId));
  }

  /** The current secret, and the previous one while its overlap window runs. */
  async signingSecrets(
    s: { subscriptionId: string; secretEncrypted: string; previousSecretEncrypted: string | null; previousSecretExpiresAt: Date | null },
    now: Date,
  ): Promise<string[]> {
    const keys = [await this.decrypt(s.subscriptionId, s.secretEncrypted)];
    if (s.previousSecretEncrypted && s.previousSecretExpiresAt && s.previousSecretExpiresAt > now)
      keys.push(await this.decrypt(s.subscriptionId, s.previousSecretEncrypted));
    return keys;
  }

  private async decrypt(subscriptionId: string, ciphertext: string): Promise<string> {
    const hit = this.plain.get(ciphertext);
    if (hit !== undefined) return hit;
    const secret = await this.encryption.decrypt(ciphertext, secretContext(subscriptionId));
    this.plain.set(ciphertext, secret);
    return secret;
  }
}
