// Jest loads global setup outside its module system, so this file is plain JS and uses the
// built dist/ (EmbeddedDatabase, the data-source options and the migrations; `npm test` builds first).
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const DIST = new URL('../../dist/', import.meta.url);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function built(path) {
  const url = new URL(path, DIST);
  if (!existsSync(url)) throw new Error(`dist/${path} is missing: run \`npm run build\` (npm test does it for you)`);
  return url;
}

/**
 * With DATABASE_URL, test databases are created on that server. Without it, a throw-away
 * embedded PostgreSQL (real binaries from npm) is started for the run. Either way the run's
 * migrated template database is made ready (see `prepareTemplate`).
 */
export default async function globalSetup() {
  // Several jest projects (or a setup that builds on this one) may call it in one run: one server.
  if (globalThis.__CGS_TEST_SERVER_READY__) return;
  globalThis.__CGS_TEST_SERVER_READY__ = true;
  // The seed of test/factories/unique-name.ts in every worker: printed so a failing run can be repeated.
  process.env.TEST_SEED ||= randomBytes(4).toString('hex');
  process.stdout.write(`\nunique names: TEST_SEED=${process.env.TEST_SEED} repeats them\n`);
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = '/postgres';
    process.env.CGS_TEST_ADMIN_URL = u.toString();
  } else {
    const { EmbeddedDatabase } = await import(built('src/database/embedded-postgres.js').href);
    const dir = mkdtempSync(join(tmpdir(), 'cgs-test-pg-'));
    chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
    const db = new EmbeddedDatabase({ dataDir: join(dir, 'data'), port: await freePort(), database: 'postgres', persistent: false });
    await db.start();
    process.env.CGS_TEST_ADMIN_URL = db.adminUrl();
    globalThis.__CGS_EMBEDDED__ = db;
  }
  process.env.CGS_TEST_TEMPLATE = await prepareTemplate(process.env.CGS_TEST_ADMIN_URL);
}

/** Templates of other migration sets that no run has used for this long are dropped. */
const STALE_MS = 60 * 60 * 1000;

/**
 * A database with every migration applied, which `createTestDatabase()` copies (CREATE DATABASE
 * ... TEMPLATE) instead of each test file and app process migrating an empty database.
 *
 * Its name carries a hash of the built migrations, so a server shared by several checkouts or runs
 * keeps one template per migration set: it is built under a temporary name and renamed when
 * complete, so a template with the final name is always whole and is reused as it is (a run that
 * loses the race to create it drops its own copy). It refuses connections (ALLOW_CONNECTIONS
 * false): CREATE DATABASE ... TEMPLATE fails while any session is connected to the template, and
 * nothing is meant to connect to it. Each run stamps the time it used its template in the
 * database's comment; templates of other migration sets unused for an hour are dropped.
 */
async function prepareTemplate(adminUrl) {
  const dir = fileURLToPath(built('migrations/'));
  const hash = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(dir, f)))
      .update('\0');
  }
  const digest = hash.digest('hex').slice(0, 12);
  const name = `cgs_template_${digest}`;

  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = async (db) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount > 0;
    if (!(await exists(name))) {
      const temp = `cgs_tpltmp_${digest}_${Date.now()}_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${temp}`);
      try {
        await migrate(urlFor(adminUrl, temp));
        await admin.query(`ALTER DATABASE ${temp} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
        await admin.query(`ALTER DATABASE ${temp} RENAME TO ${name}`);
      } catch (err) {
        await dropDatabase(admin, temp);
        // 42P04 duplicate_database: a concurrent run finished the same template first; use it.
        if (err?.code !== '42P04') throw err;
      }
    }
    await admin.query(`COMMENT ON DATABASE ${name} IS '${new Date().toISOString()}'`);
    await dropStale(admin, name);
  } finally {
    await admin.end();
  }
  return name;
}

async function migrate(url) {
  await import('reflect-metadata');
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import(built('src/database/data-source-options.js').href);
  const ds = new DataSource({ ...dataSourceOptions(url, [], { poolSize: 1 }), logging: false });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

function urlFor(adminUrl, database) {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function dropDatabase(admin, db) {
  await admin.query(`ALTER DATABASE ${db} WITH IS_TEMPLATE false`).catch(() => undefined);
  await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
}

/** Templates of other migration sets, and temporary ones left by an interrupted run, unused for STALE_MS. */
async function dropStale(admin, keep) {
  const { rows } = await admin.query(
    `SELECT datname AS name, shobj_description(oid, 'pg_database') AS used FROM pg_database
     WHERE datname LIKE 'cgs\\_template\\_%' OR datname LIKE 'cgs\\_tpltmp\\_%'`,
  );
  const now = Date.now();
  for (const { name, used } of rows) {
    if (name === keep) continue;
    // A temporary template's name carries its creation time; a template's comment its last use.
    const at = name.startsWith('cgs_tpltmp_') ? Number(name.split('_')[3]) : Date.parse(used ?? '');
    if (!(now - at > STALE_MS)) continue; // recent, or no readable time: leave it
    await dropDatabase(admin, name).catch(() => undefined); // another run may be dropping it too
  }
}
