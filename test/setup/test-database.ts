import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** URL of the server that test databases are created on (set by the global setup). */
export function adminUrl(): string {
  const url = process.env.CGS_TEST_ADMIN_URL;
  if (!url) throw new Error('CGS_TEST_ADMIN_URL is not set: run the e2e tests through jest (global setup)');
  return url;
}

export function urlFor(database: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The run's migrated template database (made by the global setup, test/setup/global-setup.mjs). */
export function templateName(): string {
  const name = process.env.CGS_TEST_TEMPLATE;
  if (!name) throw new Error('CGS_TEST_TEMPLATE is not set: run the tests through jest (global setup)');
  return name;
}

export interface TestDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

/**
 * A fresh database on the test server; each test file (or app process group) gets its own. It is a
 * copy of the run's template, so every migration is already applied; `empty: true` gives a database
 * with no schema at all, for the tests of the migrations themselves.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `cgs_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(options.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${templateName()}`));
  return {
    name,
    url: urlFor(name),
    drop: () =>
      admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}

/** Makes the database refuse connections and cuts the open ones (a database outage). */
export async function takeDatabaseDown(name: string): Promise<void> {
  await admin(async (c) => {
    await c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  });
}

export async function bringDatabaseUp(name: string): Promise<void> {
  await admin((c) => c.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
}
