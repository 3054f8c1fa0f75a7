import { AppSecretsRepository } from './app-secrets.repository.js';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { createSecretKey, type KeyObject, randomBytes, webcrypto } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';

/**
 * Key material for the service: from configuration when given, otherwise generated once and
 * kept in the `app_secrets` table so that every instance on the database shares it
 * (development convenience; production configuration requires the keys, see README).
 */
@Injectable()
export class SecretsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(SecretsService.name);
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly config: AppConfig,
    private readonly repo: AppSecretsRepository,
  ) {}

  /**
   * Loads the keys before the first request. Loaded lazily, the first ones were read on a second
   * pooled connection by requests that already held one in a transaction (registrations, logins):
   * a burst of as many such requests as the pool has connections waited for a free connection
   * that none of them would give back, until the pool's checkout timeout (503).
   */
  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.sessionKeys(), this.encryptionKey()]);
  }

  private sessionKeyForms?: Promise<{ verify: KeyObject; sign: webcrypto.CryptoKey }>;

  /**
   * The session key in the forms its libraries take, made once: a KeyObject for jsonwebtoken
   * (passport-jwt verifies; given a Buffer it first tries to parse it as a public key, on every
   * request) and a WebCrypto key for jose (signs; given bytes it imports them on every call).
   */
  sessionKeys(): Promise<{ verify: KeyObject; sign: webcrypto.CryptoKey }> {
    this.sessionKeyForms ??= this.sessionKey().then(async (raw) => ({
      verify: createSecretKey(raw),
      sign: await webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    }));
    this.sessionKeyForms.catch(() => (this.sessionKeyForms = undefined));
    return this.sessionKeyForms;
  }

  /** HMAC key for session tokens. */
  sessionKey(): Promise<Buffer> {
    return this.get('session_secret', this.config.SESSION_SECRET ? Buffer.from(this.config.SESSION_SECRET, 'utf8') : undefined);
  }

  /** 32-byte AES key for secrets at rest. */
  encryptionKey(): Promise<Buffer> {
    return this.get('encryption_key', this.config.ENCRYPTION_KEY ? Buffer.from(this.config.ENCRYPTION_KEY, 'hex') : undefined);
  }

  /** Any other named 32-byte key (e.g. a salt master seed), same rules. */
  named(name: string, configured?: Buffer): Promise<Buffer> {
    return this.get(name, configured);
  }

  private get(name: string, configured: Buffer | undefined): Promise<Buffer> {
    if (configured) return Promise.resolve(configured);
    let p = this.cache.get(name);
    if (!p) {
      p = this.loadOrCreate(name);
      p.catch(() => this.cache.delete(name));
      this.cache.set(name, p);
    }
    return p;
  }

  private async loadOrCreate(name: string): Promise<Buffer> {
    const candidate = randomBytes(32).toString('hex');
    const value = await this.repo.getOrCreate(name, candidate);
    if (value === candidate) this.logger.warn(`generated ${name} and stored it in the database; configure it for production`);
    return Buffer.from(value, 'hex');
  }
}
