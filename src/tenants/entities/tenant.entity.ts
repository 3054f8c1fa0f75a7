import { Column, Entity, Index } from 'typeorm';
import type { LoginRateLimitSettings } from '../../common/throttling/login-rate-limits.js';
import { BaseEntity } from '../../database/base.entity.js';

/** Per-tenant settings that logins and other modules read. */
export interface TenantSettings {
  /** Users who registered with one zkLogin account must always log in with it (spec rule 5). */
  primaryAccountLogin?: boolean;
  /** Origins (scheme://host[:port]) accepted in SIWE messages. */
  siweAllowedOrigins?: string[];
  /** EVM chain ids accepted in SIWE messages. */
  siweAllowedChainIds?: number[];
  /** OpenID client id (the `aud`) expected in providerA credentials. */
  providerAClientId?: string;
  /** Login rate limits of this tenant, over the configured ones (docs/decisions.md); null removes them. */
  loginRateLimits?: LoginRateLimitSettings | null;
  /** Handles players may not take, in place of the default list (src/users/reserved-handles.ts); null restores it. */
  reservedHandles?: string[] | null;
  [key: string]: unknown;
}

/**
 * A tenant owns communities and users. It holds the shared secret that consuming backends
 * encrypt OAuth tokens with (stored encrypted) and a management API key (stored as a hash).
 */
@Entity('tenants')
export class Tenant extends BaseEntity {
  @Index('uq_tenants_slug', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** AES-GCM ciphertext of the hex shared secret (see EncryptionService). */
  @Column({ type: 'text' })
  sharedSecretEnc: string;

  /** SHA-256 of the management API key, hex. */
  @Index('uq_tenants_api_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  apiKeyHash: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: TenantSettings;
}
