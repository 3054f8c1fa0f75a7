import pg from 'pg';
import { DataSource } from 'typeorm';
import { appEntities } from '../../src/app.entities.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { primaryLocatorFor } from '../../src/database/primary-locator.js';
import { freePort } from '../helpers/processes.js';
import { createModuleTest, type ModuleTest } from './harness.js';

const insertTenant = (ds: DataSource, slug: string) =>
  ds.query(
    `INSERT INTO tenants (slug, name, settings, api_key_hash, shared_secret_enc) VALUES ($1, $1, '{}', md5(random()::text) || md5(random()::text), 'x') RETURNING slug`,
    [slug],
  );

/**
 * A multi-host DATABASE_URL (libpq's form, as pg_auto_failover prints it) on the real database: the
 * pool's connections find the writable server past a host that refuses them, and a server that
 * turns read-only (as a demoted primary does) makes the locator search again and the pool drop the
 * refused connection, with no restart. The failover itself is in test/topology.
 */
describe('the primary locator (medium: the data source on a multi-host URL)', () => {
  let t: ModuleTest;
  let ds: DataSource;
  let admin: pg.Client;
  let url: string;
  let dead: number;
  let real: URL;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [] });
    real = new URL(t.config.DATABASE_URL!);
    dead = await freePort(); // nothing listens there
    const auth = `${real.username}${real.password ? `:${real.password}` : ''}`;
    url = `postgres://${auth}@127.0.0.1:${dead},${real.hostname}:${real.port}${real.pathname}?target_session_attrs=read-write`;
    ds = await new DataSource(dataSourceOptions(url, appEntities, { poolSize: 3 })).initialize();
    admin = new pg.Client({ connectionString: `postgres://${auth}@${real.hostname}:${real.port}/postgres` });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${t.databaseName}" RESET default_transaction_read_only`).catch(() => undefined);
    await admin?.end();
    await ds?.destroy();
    await t?.close();
  });

  it('connects past a dead host to the writable one', async () => {
    const locator = primaryLocatorFor(url)!;
    expect(locator.hosts.map((h) => h.port)).toEqual([dead, Number(real.port)]);
    expect(await insertTenant(ds, `pl-${dead}`)).toEqual([{ slug: `pl-${dead}` }]);
    expect((await locator.primary()).port).toBe(Number(real.port));
  });

  it('follows a primary that turns read-only (503 meanwhile) and writable again', async () => {
    const locator = primaryLocatorFor(url)!;
    await admin.query(`ALTER DATABASE "${t.databaseName}" SET default_transaction_read_only = on`);
    // New sessions are read-only; the pool's open ones are cut, as a demotion's restart cuts them.
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [t.databaseName]);
    await new Promise((r) => setTimeout(r, 200)); // the pool drops its cut idle connections
    const refused = (await insertTenant(ds, 'pl-readonly').catch((e: unknown) => e)) as { code?: string; driverError?: { code?: string } };
    // The write reached a read-only session: 25006, answered 503 with Retry-After.
    expect(refused.driverError?.code ?? refused.code).toBe('25006');
    await new Promise((r) => setTimeout(r, 300)); // past the locator's pause after a failed search
    await expect(locator.primary()).rejects.toMatchObject({
      code: 'ECONNREFUSED',
      message: expect.stringMatching(/no writable PostgreSQL/),
    });

    await admin.query(`ALTER DATABASE "${t.databaseName}" RESET default_transaction_read_only`);
    await new Promise((r) => setTimeout(r, 300));
    // The pool lends no read-only session again: the next writes succeed.
    for (let i = 0; i < 5; i++) expect(await insertTenant(ds, `pl-again-${i}`)).toEqual([{ slug: `pl-again-${i}` }]);
  });
});
