import { QueryFailedError } from 'typeorm';
import { CacheFactory } from '../../src/common/cache/cache-factory.js';
import { DomainError } from '../../src/common/errors/domain-error.js';
import { CommonErrors } from '../../src/common/errors/error-catalog.js';
import { findOneFast } from '../../src/database/find-one-fast.js';
import { preparedQuery } from '../../src/database/prepared-query.js';
import { onConstraintViolation, uniqueViolation } from '../../src/database/repository.js';
import { Tenant } from '../../src/tenants/entities/tenant.entity.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { inRolledBackTransaction, uniqueName } from './fixtures.js';

/** The data layer's shared helpers on the real database: unique violations, the fast lookups, read caches. */
describe('data layer helpers (medium: the infrastructure modules on PostgreSQL)', () => {
  let t: ModuleTest;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [] });
  });
  afterAll(() => t?.close());

  const insertTenant = (slug: string) =>
    t.dataSource.query(
      `INSERT INTO tenants (slug, name, settings, api_key_hash, shared_secret_enc) VALUES ($1, $1, '{}', md5(random()::text) || md5(random()::text), 'x')`,
      [slug],
    );

  it('a unique violation names its constraint and becomes the mapped domain error; other failures pass through unchanged', async () => {
    const slug = uniqueName('t');
    await insertTenant(slug);
    const duplicate = await insertTenant(slug).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(QueryFailedError);
    expect(uniqueViolation(duplicate)).toBe('uq_tenants_slug');
    expect(uniqueViolation(new Error('not a query'))).toBeNull();
    expect(uniqueViolation(new QueryFailedError('q', [], Object.assign(new Error('dup'), { code: '23505' })))).toBe('');

    const mapped = await onConstraintViolation(() => insertTenant(slug), {
      uq_tenants_slug: () => new DomainError(CommonErrors.conflict),
    }).catch((e: unknown) => e);
    expect(mapped).toBeInstanceOf(DomainError);
    // A constraint nobody mapped, and a failure that is no unique violation, are thrown as they are.
    await expect(
      onConstraintViolation(() => insertTenant(slug), { other: () => new DomainError(CommonErrors.conflict) }),
    ).rejects.toBeInstanceOf(QueryFailedError);
    await expect(onConstraintViolation(() => Promise.reject(new Error('boom')), {})).rejects.toThrow('boom');
  });

  it("a check violation of a mapped constraint becomes its domain error too (the ledger's 2^53 - 1 limit)", async () => {
    await inRolledBackTransaction(t.dataSource, async (qr) => {
      await qr.query('CREATE TEMP TABLE ck_probe (n int CONSTRAINT ck_probe_small CHECK (n < 10))');
      const insert = () => qr.query('INSERT INTO ck_probe VALUES (11)');
      // The raw failure is a check violation, which `uniqueViolation` does not take for its own.
      await qr.query('SAVEPOINT probe');
      const raw = await insert().catch((e: unknown) => e);
      await qr.query('ROLLBACK TO SAVEPOINT probe');
      expect(raw).toBeInstanceOf(QueryFailedError);
      expect(uniqueViolation(raw)).toBeNull();
      const mapped = await onConstraintViolation(insert, { ck_probe_small: () => new DomainError(CommonErrors.conflict) }).catch(
        (e: unknown) => e,
      );
      expect(mapped).toBeInstanceOf(DomainError);
    });
  });

  it('findOneFast finds by columns, inside a transaction too, and refuses a property that is no column', async () => {
    const slug = uniqueName('t');
    await insertTenant(slug);
    expect((await findOneFast(t.dataSource.manager, Tenant, { slug }))?.slug).toBe(slug);
    expect(await t.dataSource.transaction((em) => findOneFast(em, Tenant, { slug: `${slug}-no` }))).toBeNull();
    await expect(findOneFast(t.dataSource.manager, Tenant, { nope: 1 } as never)).rejects.toThrow('Tenant has no column nope');
  });

  it('preparedQuery runs a statement on the transaction it is given, or on a pooled connection, and fails as TypeORM does', async () => {
    const slug = uniqueName('t');
    const insert = `INSERT INTO tenants (slug, name, settings, api_key_hash, shared_secret_enc) VALUES ($1, $1, '{}', md5(random()::text) || md5(random()::text), 'x') RETURNING slug`;
    expect(await preparedQuery(t.dataSource.manager, insert, [slug])).toEqual([{ slug }]);
    // The same text again (its prepared statement reused): the unique violation is a QueryFailedError with its constraint.
    const duplicate = await preparedQuery(t.dataSource, insert, [slug]).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(QueryFailedError);
    expect(uniqueViolation(duplicate)).toBe('uq_tenants_slug');
    // Inside a transaction it runs on that transaction's connection: rolled back with it.
    const rolledBack = uniqueName('t');
    await t.dataSource
      .transaction(async (em) => {
        await preparedQuery(em, insert, [rolledBack]);
        expect(await em.query('SELECT count(*)::int AS n FROM tenants WHERE slug = $1', [rolledBack])).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM tenants WHERE slug = $1', [rolledBack])).toEqual([{ n: 0 }]);
  });

  it('two read caches cannot share a name', () => {
    const caches = t.get(CacheFactory);
    const name = uniqueName('cache');
    caches.create({ name, load: () => Promise.resolve({}) });
    expect(() => caches.create({ name, load: () => Promise.resolve({}) })).toThrow(/exists already/);
  });
});
