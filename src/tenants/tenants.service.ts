import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EncryptionService } from '../crypto/encryption.service.js';
import { randomToken, sha256Hex } from '../crypto/hashing.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { AppConfig } from '../config/app-config.js';
import { parseDomain, requestHostKey } from './domain-name.js';
import { loginRateLimitSettingsProblem } from '../common/throttling/login-rate-limits.js';
import { reservedHandlesProblem } from '../users/reserved-handles.js';
import { assertSafeInput } from '../common/validation/safe-input.js';
import type { Tenant, TenantSettings } from './entities/tenant.entity.js';
import { uniqueViolation } from '../database/repository.js';
import { TenantsRepository } from './tenants.repository.js';
import { TenantErrors } from './tenants.errors.js';
import { idOf } from '../common/validation/uuid.js';

const CACHE_MS = 5_000;
/** Every X-Tenant-Id a client invents is a key: past this many, start over rather than grow. */
const CACHE_MAX_ENTRIES = 10_000;
/** The longest slug (`tenants.slug`, varchar(64)); an id is 36 characters. */
const TENANT_REF_MAX = 64;
/** A cached read and when it was made. */
type Kept = { at: number; value: Promise<unknown> };

/** Domains one tenant may have. */
export const MAX_TENANT_DOMAINS = 50;

/** What a request says about its tenant; `resolveForRequest` applies the one order. */
export interface TenantClues {
  /** The tenant of a valid session token. */
  session?: string;
  /** `X-Tenant-Id`. */
  header?: string;
  /** `:tenantId` of a public path fetched without headers (NFT token URIs). */
  path?: string;
  /** `req.hostname`: the Host header, or X-Forwarded-Host from a trusted proxy. */
  host?: string;
}

/** A tenant and the domains assigned to it. */
export interface TenantView {
  id: string;
  slug: string;
  name: string;
  domains: string[];
}

/** How to change a tenant's domains: replace the list, or add and remove some. */
export interface DomainChange {
  set?: string[];
  add?: string[];
  remove?: string[];
}

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
  /**
   * Short-lived cache: tenants and their domains are read on every request and change rarely. A
   * change through this process clears it; other instances see the change within CACHE_MS.
   */
  private readonly cache = new Map<string, Kept>();
  /** `findByRef`'s, by the ref as sent (read on every request: no key is built for it). */
  private readonly byRef = new Map<string, Kept>();

  constructor(
    private readonly repo: TenantsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly encryption: EncryptionService,
    private readonly config: AppConfig,
  ) {}

  private cached<T>(key: string, load: () => Promise<T>, cache = this.cache): Promise<T> {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value as Promise<T>;
    if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    const value = load();
    value.catch(() => cache.delete(key));
    cache.set(key, { at: Date.now(), value });
    return value;
  }

  /** Forgets every cached tenant read (a change through this process). */
  private forget(): void {
    this.cache.clear();
    this.byRef.clear();
  }

  findByRef(ref: string): Promise<Tenant | null> {
    // Longer than any slug or id: no tenant, and no key of a client's making kept at that length.
    if (ref.length > TENANT_REF_MAX) return Promise.resolve(null);
    return this.cached(ref, () => this.repo.findByRef(ref, idOf(ref) !== null), this.byRef);
  }

  findByApiKey(apiKey: string): Promise<Tenant | null> {
    if (apiKey.length > 200) return Promise.resolve(null);
    return this.cached(`key:${sha256Hex(apiKey)}`, () => this.repo.findByApiKeyHash(sha256Hex(apiKey)));
  }

  async getById(id: string): Promise<Tenant> {
    const t = await this.findByRef(id);
    if (!t) throw new DomainError(TenantErrors.unknown_tenant, `No tenant ${id}`);
    return t;
  }

  /**
   * The tenant a request runs in, in one order for every route but the management ones (an API key
   * is its tenant's): the session token's tenant; `X-Tenant-Id` (or the path's tenant); the host
   * name, when an operator assigned it to a tenant; DEFAULT_TENANT; the only tenant. A session and a
   * name of another tenant is 401. Costs no database read while the cache holds (CACHE_MS).
   */
  async resolveForRequest(clues: TenantClues): Promise<string> {
    const ref = clues.header || clues.path || undefined;
    if (clues.session) {
      if (ref !== undefined && (await this.findByRef(ref))?.id !== clues.session) {
        throw new DomainError(CommonErrors.tenant_mismatch, 'The session token does not belong to the tenant in X-Tenant-Id');
      }
      return clues.session;
    }
    if (ref !== undefined) {
      const tenant = await this.findByRef(ref);
      if (!tenant) throw new DomainError(TenantErrors.unknown_tenant, `X-Tenant-Id "${ref.slice(0, 64)}" names no tenant`);
      return tenant.id;
    }
    const host = requestHostKey(clues.host);
    const byDomain = host && (await this.domainMap()).get(host);
    if (byDomain) return byDomain;
    // Start-up refused a DEFAULT_TENANT that names no tenant (checkDefaultTenant).
    const byDefault = this.config.DEFAULT_TENANT && (await this.findByRef(this.config.DEFAULT_TENANT));
    if (byDefault) return byDefault.id;
    const only = await this.cached('only', async () => {
      const two = await this.repo.oldest(2);
      return two.length === 1 ? two[0] : null;
    });
    if (!only) {
      throw new DomainError(
        TenantErrors.tenant_required,
        'Several tenants exist and this request names none: send the session token of a login, or X-Tenant-Id (tenant id or slug), or call the service on a domain assigned to the tenant; an operator may set DEFAULT_TENANT',
      );
    }
    return only.id;
  }

  /** Every assigned domain and its tenant id. */
  private domainMap(): Promise<Map<string, string>> {
    return this.cached('domains', async () => {
      const rows = await this.repo.allDomains();
      return new Map(rows.map((r) => [r.domain, r.tenantId]));
    });
  }

  /**
   * Start-up check: DEFAULT_TENANT must name a tenant (or one of `coming`, made right after the
   * start), else every request that names no tenant would fail long after a typo was deployed.
   */
  async checkDefaultTenant(coming: string[] = []): Promise<void> {
    const ref = this.config.DEFAULT_TENANT;
    if (!ref || coming.includes(ref) || (await this.findByRef(ref))) return;
    throw new Error(
      `DEFAULT_TENANT "${ref}" names no tenant: create it (npm run cli -- tenant:create --slug <slug>), or correct or remove the setting`,
    );
  }

  async view(ref: string): Promise<TenantView> {
    const tenant = await this.getById(ref);
    const domains = await this.repo.domainsOf(tenant.id);
    return { id: tenant.id, slug: tenant.slug, name: tenant.name, domains: domains.map((d) => d.domain) };
  }

  /**
   * Replaces, adds or removes a tenant's domains, all normalised (src/tenants/domain-name.ts), in one
   * transaction: a domain of another tenant (409) or an invalid one (400) changes nothing.
   */
  async changeDomains(ref: string, change: DomainChange): Promise<TenantView> {
    const normalise = (list: string[] = []) =>
      list.map((input) => {
        const parsed = parseDomain(input);
        if ('invalid' in parsed)
          throw new DomainError(TenantErrors.invalid_domain, `"${input.slice(0, 300)}" is not a domain: ${parsed.invalid}`);
        return parsed.domain;
      });
    const [set, add, remove] = [change.set && normalise(change.set), normalise(change.add), new Set(normalise(change.remove))];
    const tenant = await this.getById(ref);
    await this.dataSource.transaction(async (em) => {
      // Serialises changes of one tenant's list.
      await this.repo.lock(tenant.id, em);
      const current = (await this.repo.domainsOf(tenant.id, em)).map((d) => d.domain);
      const wanted = [...new Set([...(set ?? current), ...add])].filter((d) => !remove.has(d));
      if (wanted.length > MAX_TENANT_DOMAINS)
        throw new DomainError(TenantErrors.invalid_domain, `A tenant has at most ${MAX_TENANT_DOMAINS} domains`);
      const taken = await this.repo.takenByOthers(wanted, tenant.id, em);
      if (taken.length) throw this.domainTaken(taken);
      try {
        await this.repo.replaceDomains(tenant.id, wanted, em);
      } catch (err) {
        // Another tenant claimed one of them since the check above.
        if (uniqueViolation(err) !== null) throw this.domainTaken(wanted.filter((d) => !current.includes(d)));
        throw err;
      }
    });
    this.forget();
    return this.view(tenant.id);
  }

  private domainTaken(domains: string[]): DomainError {
    return new DomainError(TenantErrors.domain_taken, `Assigned to another tenant: ${domains.join(', ')}`, { domains });
  }

  /** The tenant's shared secret (hex), decrypted. */
  async sharedSecret(tenant: Tenant): Promise<string> {
    return this.encryption.decrypt(tenant.sharedSecretEnc, `tenant:${tenant.id}:shared-secret`);
  }

  list(): Promise<Tenant[]> {
    return this.repo.list();
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  async create(input: { slug: string; name?: string; settings?: TenantSettings; sharedSecret?: string }): Promise<TenantCredentials> {
    checkSettings(input.settings ?? {});
    const apiKey = randomToken('cgs_key');
    const sharedSecret = input.sharedSecret ?? randomBytes(32).toString('hex');
    const tenant = await this.dataSource.transaction(async (em) => {
      const t = await this.repo.save(
        {
          slug: input.slug,
          name: input.name ?? input.slug,
          settings: input.settings ?? {},
          apiKeyHash: sha256Hex(apiKey),
          sharedSecretEnc: 'pending',
        },
        em,
      );
      t.sharedSecretEnc = await this.encryption.encrypt(sharedSecret, `tenant:${t.id}:shared-secret`);
      return this.repo.save(t, em);
    });
    this.forget();
    return { id: tenant.id, slug: tenant.slug, name: tenant.name, sharedSecret, apiKey };
  }

  async rotate(
    ref: string,
    what: { sharedSecret?: boolean | string; apiKey?: boolean },
  ): Promise<Partial<TenantCredentials> & { id: string; slug: string }> {
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
    this.forget();
    return out;
  }

  async updateSettings(ref: string, settings: TenantSettings): Promise<Tenant> {
    const tenant = await this.findByRef(ref);
    if (!tenant) throw new DomainError(TenantErrors.unknown_tenant, `No tenant ${ref}`);
    checkSettings(settings);
    tenant.settings = { ...tenant.settings, ...settings };
    await this.repo.save(tenant);
    this.forget();
    return tenant;
  }

  /** On a database with no tenant at all, create a default one and print its credentials once. */
  async ensureDefaultTenant(print: (creds: TenantCredentials) => void): Promise<void> {
    if ((await this.repo.count()) > 0) return;
    await this.dataSource.transaction(async (em) => {
      // Serialise concurrent first starts of several instances.
      await this.repo.advisoryLock(874511, em);
      if ((await this.repo.count(em)) > 0) return;
      const creds = await this.create({ slug: 'default', name: 'Default tenant' });
      this.logger.log(`created default tenant ${creds.id}`);
      print(creds);
    });
  }
}

/**
 * Settings are checked where they are written (the CLI `tenant:settings`, tenant creation): operator
 * JSON, checked as any client input (no prototype keys), then the settings that have rules.
 */
function checkSettings(settings: TenantSettings): void {
  assertSafeInput(settings, 'settings');
  const problem = loginRateLimitSettingsProblem(settings.loginRateLimits) ?? reservedHandlesProblem(settings.reservedHandles);
  if (problem) throw new DomainError(TenantErrors.invalid_tenant_settings, problem);
}
