import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { EncryptionService } from '../common/crypto/encryption.service.js';
import { randomToken, sha256Hex } from '../common/crypto/hashing.js';
import { DomainError } from '../common/errors/domain-error.js';
import { assertSafeInput } from '../common/validation/safe-input.js';
import { Tenant, type TenantSettings } from './entities/tenant.entity.js';
import { TenantErrors } from './tenants.errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CACHE_MS = 5_000;

/** What the operator sees once when a tenant is created or its credentials rotated. */
export interface TenantCredentials {
  id: string;
  slug: string;
  name: string;
  sharedSecret: string;
  apiKey: string;
}

@Injectable()
export class TenantsService {
  private readonly logger = new Logger(TenantsService.name);
  /** Short-lived cache: tenants are read on every request and change rarely. */
  private readonly cache = new Map<string, { at: number; tenant: Promise<Tenant | null> }>();

  constructor(
    @InjectRepository(Tenant) private readonly repo: Repository<Tenant>,
    private readonly encryption: EncryptionService,
  ) {}

  private cached(key: string, load: () => Promise<Tenant | null>): Promise<Tenant | null> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.tenant;
    const tenant = load();
    tenant.catch(() => this.cache.delete(key));
    this.cache.set(key, { at: Date.now(), tenant });
    return tenant;
  }

  findByRef(ref: string): Promise<Tenant | null> {
    return this.cached(`ref:${ref}`, () =>
      this.repo.findOne({ where: UUID.test(ref) ? [{ id: ref }, { slug: ref }] : { slug: ref } }),
    );
  }

  findByApiKey(apiKey: string): Promise<Tenant | null> {
    if (apiKey.length > 200) return Promise.resolve(null);
    return this.cached(`key:${sha256Hex(apiKey)}`, () => this.repo.findOneBy({ apiKeyHash: sha256Hex(apiKey) }));
  }

  async getById(id: string): Promise<Tenant> {
    const t = await this.findByRef(id);
    if (!t) throw new DomainError(TenantErrors.unknown_tenant, `No tenant ${id}`);
    return t;
  }

  /** The tenant of an unauthenticated request: from the header, or the only tenant there is. */
  async resolveForRequest(ref: string | undefined): Promise<Tenant> {
    if (ref) {
      const tenant = await this.findByRef(ref);
      if (!tenant) throw new DomainError(TenantErrors.unknown_tenant, `X-Tenant-Id "${ref.slice(0, 64)}" names no tenant`);
      return tenant;
    }
    const only = await this.cached('only', async () => {
      const two = await this.repo.find({ take: 2, order: { createdAt: 'ASC' } });
      return two.length === 1 ? two[0] : null;
    });
    if (!only) throw new DomainError(TenantErrors.tenant_required);
    return only;
  }

  /** The tenant's shared secret (hex), decrypted. */
  async sharedSecret(tenant: Tenant): Promise<string> {
    return this.encryption.decrypt(tenant.sharedSecretEnc, `tenant:${tenant.id}:shared-secret`);
  }

  list(): Promise<Tenant[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  async create(input: { slug: string; name?: string; settings?: TenantSettings; sharedSecret?: string }): Promise<TenantCredentials> {
    assertSafeInput(input.settings, 'settings'); // operator JSON (CLI): no prototype keys, as for any client input
    const apiKey = randomToken('cgs_key');
    const sharedSecret = input.sharedSecret ?? randomBytes(32).toString('hex');
    const tenant = this.repo.create({
      slug: input.slug,
      name: input.name ?? input.slug,
      settings: input.settings ?? {},
      apiKeyHash: sha256Hex(apiKey),
      sharedSecretEnc: 'pending',
    });
    await this.repo.manager.transaction(async (em) => {
      await em.save(tenant);
      tenant.sharedSecretEnc = await this.encryption.encrypt(sharedSecret, `tenant:${tenant.id}:shared-secret`);
      await em.save(tenant);
    });
    this.cache.clear();
    return { id: tenant.id, slug: tenant.slug, name: tenant.name, sharedSecret, apiKey };
  }

  async rotate(ref: string, what: { sharedSecret?: boolean | string; apiKey?: boolean }): Promise<Partial<TenantCredentials> & { id: string; slug: string }> {
    const tenant = await this.findByRef(ref);
    if (!tenant) throw new DomainError(TenantErrors.unknown_tenant, `No tenant ${ref}`);
    const out: Partial<TenantCredentials> & { id: string; slug: string } = { id: tenant.id, slug: tenant.slug };
    if (what.apiKey) {
      out.apiKey = randomToken('cgs_key');
      tenant.apiKeyHash = sha256Hex(out.apiKey);
    }
    if (what.sharedSecret !== undefined && what.sharedSecret !== false) {
      out.sharedSecret = typeof what.sharedSecret === 'string' ? what.sharedSecret : randomBytes(32).toString('hex');
      tenant.sharedSecretEnc = await this.encryption.encrypt(out.sharedSecret, `tenant:${tenant.id}:shared-secret`);
    }
    await this.repo.save(tenant);
    this.cache.clear();
    return out;
  }

  async updateSettings(ref: string, settings: TenantSettings): Promise<Tenant> {
    const tenant = await this.findByRef(ref);
    if (!tenant) throw new DomainError(TenantErrors.unknown_tenant, `No tenant ${ref}`);
    assertSafeInput(settings, 'settings');
    tenant.settings = { ...tenant.settings, ...settings };
    await this.repo.save(tenant);
    this.cache.clear();
    return tenant;
  }

  /** On a database with no tenant at all, create a default one and print its credentials once. */
  async ensureDefaultTenant(print: (creds: TenantCredentials) => void): Promise<void> {
    if ((await this.repo.count()) > 0) return;
    await this.repo.manager.transaction(async (em) => {
      // Serialise concurrent first starts of several instances.
      await em.query('SELECT pg_advisory_xact_lock(874511)');
      if ((await em.getRepository(Tenant).count()) > 0) return;
      const creds = await this.create({ slug: 'default', name: 'Default tenant' });
      this.logger.log(`created default tenant ${creds.id}`);
      print(creds);
    });
  }
}
