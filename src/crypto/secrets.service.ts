import { AppSecretsRepository } from './app-secrets.repository.js';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
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
    await Promise.all([this.sessionSigningKey(), this.encryptionKey()]);
  }

  private signingKey?: Promise<KeyObject>;

  /**
   * The session key as a KeyObject, made once, for jsonwebtoken, which both signs and verifies
   * session tokens (given a Buffer, it first tries to parse it as a public key on every call).
   */
  sessionSigningKey(): Promise<KeyObject> {
    this.signingKey ??= this.sessionKey().then((raw) => createSecretKey(raw));
    this.signingKey.catch(() => (this.signingKey = undefined));
    return this.signingKey;
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

  /** The same Buffer at every call, configured or stored: callers may tell a key by its identity. */
  private get(name: string, configured: Buffer | undefined): Promise<Buffer> {
    let p = this.cache.get(name);
    if (!p) {
      p = configured ? Promise.resolve(configured) : this.loadOrCreate(name);
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
