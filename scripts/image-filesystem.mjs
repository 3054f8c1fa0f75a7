/* eslint-disable no-console -- a command-line script: it talks to its user on the console */
// `npm run image:check`: builds the production image's filesystem from docker/Dockerfile without a
// container engine (none runs on these machines, and no registry but npm's and Debian's is
// reachable: the base image cannot be pulled; docs/decisions.md, "The image"), and serves from it.
//
// 1. the build stage: its COPY lines copy those paths of this checkout into an empty folder, and
//    its RUN lines run there, in order (npm ci from the lockfile, the build, the prune);
// 2. the runtime stage: its `COPY --from=build` paths are copied from that folder into a second
//    empty one, with its ENV;
// 3. its CMD is started there (its ENV, so NODE_ENV=production; fresh secrets; a throw-away
//    database), and /health/ready, a route of the API, the console and the document must answer.
// Exits 1 naming what failed. Run by .ci/run.
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '..');
const [buildStage, runStage] = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8')
  .split(/^FROM .*$/m)
  .slice(1)
  .map((s) =>
    s
      .replace(/\\\n/g, ' ')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
const work = mkdtempSync(join(tmpdir(), 'cgs-image-'));
chmodSync(work, 0o755); // as root, the embedded PostgreSQL runs as `postgres`, which must reach its binaries here
const build = join(work, 'build');
const app = join(work, 'app');
const step = (what) => console.log(`\n=== ${what}`);
const fail = (why) => {
  console.error(`image check failed: ${why}`);
  process.exit(1);
};

step(`build stage in ${build}`);
for (const line of buildStage) {
  if (line.startsWith('WORKDIR')) continue;
  if (line.startsWith('COPY ')) {
    const parts = line.slice(5).trim().split(/\s+/);
    const dest = parts.pop();
    for (const p of parts) {
      const to = dest.endsWith('/') || parts.length > 1 ? join(build, dest, p.split('/').pop()) : join(build, dest);
      cpSync(join(ROOT, p), to, { recursive: true });
      console.log(`COPY ${p} -> ${to.slice(build.length + 1) || '.'}`);
    }
  } else if (line.startsWith('RUN ')) {
    console.log(line);
    execSync(line.slice(4), { cwd: build, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
  } else fail(`the build stage has an instruction this check does not run: ${line}`);
}

step(`runtime stage in ${app}`);
const env = {};
let cmd;
for (const line of runStage) {
  if (line.startsWith('COPY --from=build ')) {
    const [from, to] = line.slice('COPY --from=build '.length).trim().split(/\s+/);
    cpSync(join(build, from.replace(/^\/app\/?/, '')), join(app, to), { recursive: true });
    console.log(`COPY --from=build ${from} -> ${to}`);
  } else if (line.startsWith('COPY ')) {
    const [from, to] = line.slice(5).trim().split(/\s+/);
    cpSync(join(ROOT, from), to.endsWith('/') ? join(app, to, basename(from)) : join(app, to), { recursive: true });
    console.log(`COPY ${from} -> ${to}`);
  } else if (['USER ', 'EXPOSE ', 'HEALTHCHECK ', 'WORKDIR '].some((i) => line.startsWith(i))) {
    console.log(`(not applied here) ${line.slice(0, 60)}`);
  } else if (line.startsWith('ENV ')) {
    const [k, v] = line.slice(4).split('=');
    env[k] = v;
  } else if (line.startsWith('CMD ')) cmd = JSON.parse(line.slice(4));
  else fail(`the runtime stage has an instruction this check does not run: ${line}`);
}
if (!cmd) fail('the runtime stage has no CMD');

step('serving from it');
const free = () =>
  new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
// The image's service needs a database (production requires DATABASE_URL): IMAGE_CHECK_DATABASE_URL
// names one to create a throw-away database in; without it, a throw-away PostgreSQL is started
// with this checkout's embedded server (its dist/, which `npm test` builds), so the check needs
// nothing installed. (The image's own copy cannot run: `npm ci --ignore-scripts` leaves out the
// links its libraries need, and production names DATABASE_URL anyway.)
let embedded = null;
let adminUrl = process.env.IMAGE_CHECK_DATABASE_URL;
if (!adminUrl) {
  const { EmbeddedDatabase } = await import(join(ROOT, 'dist/src/database/embedded-postgres.js'));
  embedded = new EmbeddedDatabase({ dataDir: join(work, 'postgres'), port: await free(), database: 'postgres', persistent: false });
  adminUrl = await embedded.start();
}
const dbName = `cgs_image_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const port = await free();
const proc = spawn(cmd[0] === 'node' ? process.execPath : cmd[0], cmd.slice(1), {
  cwd: app,
  env: {
    PATH: process.env.PATH,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl.toString(),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SWAGGER_ENABLED: 'true',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
proc.stdout.on('data', (d) => (out += d));
proc.stderr.on('data', (d) => (out += d));
const base = `http://127.0.0.1:${port}`;
const started = Date.now();
let ok = false;
try {
  while (Date.now() - started < 60_000 && proc.exitCode === null) {
    const r = await fetch(`${base}/health/ready`).catch(() => null);
    if (r?.ok) {
      ok = true;
      break;
    }
    await new Promise((r2) => setTimeout(r2, 250));
  }
  if (!ok) fail(`the service did not get ready within 60 s:\n${out.slice(-3000)}`);
  console.log(`ready in ${Date.now() - started} ms`);
  const checks = [
    ['/health/ready', 200],
    ['/v1/community/00000000-0000-4000-8000-000000000000', 404], // the API, on the database: no such community
    ['/console/', 200],
    ['/docs-json', 200],
  ];
  for (const [path, status] of checks) {
    const r = await fetch(`${base}${path}`);
    console.log(`GET ${path}: ${r.status}`);
    if (r.status !== status) fail(`GET ${path} answered ${r.status}, not ${status}:\n${(await r.text()).slice(0, 500)}`);
  }
  console.log('\nthe image filesystem builds and serves');
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  await embedded?.stop();
  rmSync(work, { recursive: true, force: true });
}
