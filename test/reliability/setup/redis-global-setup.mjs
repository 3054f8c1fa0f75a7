// The Redis part of the reliability suite: the database as for the e2e tests, plus a Redis server
// (REDIS_URL, or a `redis-server` binary started here). Without either the run FAILS: a Redis test
// must never pass without Redis.
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import databaseSetup from '../../setup/global-setup.mjs';

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

const accepts = (port) =>
  new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

export default async function redisGlobalSetup() {
  await databaseSetup();
  if (process.env.REDIS_URL) return;
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      'npm run test:reliability needs Redis for its Redis part: set REDIS_URL=redis://host:port, or install a redis-server binary (apt-get install redis-server).',
    );
  }
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !(await accepts(port)); i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await accepts(port))) throw new Error(`redis-server did not start on port ${port}`);
  process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
  globalThis.__CGS_REDIS__ = proc;
}
