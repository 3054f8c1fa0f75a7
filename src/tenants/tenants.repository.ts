import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { TenantDomain } from './entities/tenant-domain.entity.js';
import { Tenant } from './entities/tenant.entity.js';

/** Tenants and their domains (not tenant-scoped: these rows are the tenants). */
@Injectable()
export class TenantsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** By id or slug (`byId` when `ref` is a uuid). */
  @GenerateSql({ params: ['acme', false], name: 'by slug' }, { params: [DUMMY.tenant, true], name: 'by id or slug' })
  findByRef(ref: string, byId: boolean, em?: EntityManager): Promise<Tenant | null> {
    return this.manager(em)
      .getRepository(Tenant)
      .findOne({ where: byId ? [{ id: ref }, { slug: ref }] : { slug: ref } });
  }

  @GenerateSql({ params: ['0'.repeat(64)] })
  findByApiKeyHash(apiKeyHash: string, em?: EntityManager): Promise<Tenant | null> {
    return this.manager(em).getRepository(Tenant).findOneBy({ apiKeyHash });
  }

  /** The oldest tenants, at most `n`. */
  @GenerateSql({ params: [2] })
  oldest(n: number, em?: EntityManager): Promise<Tenant[]> {
    return this.manager(em)
      .getRepository(Tenant)
      .find({ take: n, order: { createdAt: 'ASC' } });
  }

  @GenerateSql()
  list(em?: EntityManager): Promise<Tenant[]> {
    return this.manager(em)
      .getRepository(Tenant)
      .find({ order: { createdAt: 'ASC' } });
  }

  @GenerateSql()
  count(em?: EntityManager): Promise<number> {
    return this.manager(em).getRepository(Tenant).count();
  }

  /** Inserts a new tenant or writes a loaded one back. */
  @GenerateSql({ params: [{ slug: 'acme', name: 'Acme', settings: {}, apiKeyHash: '0'.repeat(64), sharedSecretEnc: 'pending' }] })
  save(tenant: Partial<Tenant>, em?: EntityManager): Promise<Tenant> {
    const repo = this.manager(em).getRepository(Tenant);
    return repo.save(tenant instanceof Tenant ? tenant : repo.create(tenant));
  }

  /** Locks the tenant's row until the caller's transaction ends. */
  @GenerateSql({ params: [DUMMY.tenant] })
  async lock(id: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE', [id]);
  }

  /** A transaction-scoped advisory lock (waits for it). */
  @GenerateSql({ params: [874511] })
  async advisoryLock(key: number, em?: EntityManager): Promise<void> {
    await this.manager(em).query(`SELECT pg_advisory_xact_lock(${Math.trunc(key)})`);
  }

  /** Every assigned domain and its tenant. */
  @GenerateSql()
  allDomains(em?: EntityManager): Promise<TenantDomain[]> {
    return this.manager(em)
      .getRepository(TenantDomain)
      .find({ select: { domain: true, tenantId: true } });
  }

  @GenerateSql({ params: [DUMMY.tenant] })
  domainsOf(tenantId: string, em?: EntityManager): Promise<TenantDomain[]> {
    return this.manager(em)
      .getRepository(TenantDomain)
      .find({ where: { tenantId }, order: { domain: 'ASC' } });
  }

  /** Which of `domains` another tenant holds. */
  @GenerateSql({ params: [['play.example.com'], DUMMY.tenant] })
  async takenByOthers(domains: string[], tenantId: string, em?: EntityManager): Promise<string[]> {
    const rows = await this.manager(em).query<{ domain: string }[]>(
      'SELECT domain FROM tenant_domains WHERE domain = ANY($1) AND tenant_id <> $2 ORDER BY domain',
      [domains, tenantId],
    );
    return rows.map((r) => r.domain);
  }

  /** Makes the tenant's domains exactly `domains` (a unique violation: another tenant took one meanwhile). */
  @GenerateSql({ params: [DUMMY.tenant, ['play.example.com']] })
  async replaceDomains(tenantId: string, domains: string[], em?: EntityManager): Promise<void> {
    const m = this.manager(em);
    await m.query('DELETE FROM tenant_domains WHERE tenant_id = $1 AND NOT (domain = ANY($2))', [tenantId, domains]);
    await m.query(
      'INSERT INTO tenant_domains (domain, tenant_id) SELECT d, $2 FROM unnest($1::varchar[]) AS d WHERE NOT EXISTS (SELECT 1 FROM tenant_domains WHERE domain = d AND tenant_id = $2)',
      [domains, tenantId],
    );
  }
}
