// Jest loads global setup outside its module system, so this file is plain JS and uses the
// built EmbeddedDatabase (`npm test` builds first).
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';

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

/**
 * With DATABASE_URL, test databases are created on that server. Without it, a throw-away
 * embedded PostgreSQL (real binaries from npm) is started for the run.
 */
export default async function globalSetup() {
  // Several jest projects (or a setup that builds on this one) may call it in one run: one server.
  if (globalThis.__CGS_TEST_SERVER_READY__) return;
  globalThis.__CGS_TEST_SERVER_READY__ = true;
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = '/postgres';
    process.env.CGS_TEST_ADMIN_URL = u.toString();
    return;
  }
  const built = new URL('../../dist/src/database/embedded-postgres.js', import.meta.url);
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does it for you)');
  const { EmbeddedDatabase } = await import(built.href);
  const dir = mkdtempSync(join(tmpdir(), 'cgs-test-pg-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
  const db = new EmbeddedDatabase({ dataDir: join(dir, 'data'), port: await freePort(), database: 'postgres', persistent: false });
  await db.start();
  process.env.CGS_TEST_ADMIN_URL = db.adminUrl();
  globalThis.__CGS_EMBEDDED__ = db;
}
