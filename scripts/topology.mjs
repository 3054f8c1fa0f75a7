// `npm run topology -- up|down|status`: the high-availability layout on one machine, on loopback,
// for the failover tests and for trying it by hand. Today: PostgreSQL 15 with pg_auto_failover
// (Debian's postgresql-15-auto-failover and pg-auto-failover-cli, installed here when missing): a
// monitor, a primary and a synchronous standby. The service follows the primary through the
// multi-host URL `status` prints (src/database/primary-locator.ts).
//
// Everything lives in TOPOLOGY_DIR (default .cache/topology): data directories, pg_autoctl's
// configuration and state (XDG_CONFIG_HOME / XDG_DATA_HOME pointed inside it), logs, and
// topology.json with the ports and process groups. Ports from TOPOLOGY_PORT (default 55400):
// monitor, node_1, node_2. Each pg_autoctl runs in a process group of its own, so that a test can
// kill one node whole (its keeper and its PostgreSQL) as the loss of its machine.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PG_BIN = '/usr/lib/postgresql/15/bin';
const NODES = ['node_1', 'node_2'];

/**
 * Failure detection of the monitor, shortened from its defaults (a 5 s check, 2 retries 2 s apart,
 * unhealthy after 20 s, a 30 s demote timeout): on loopback a check answers in milliseconds, and the
 * service answers 503 for as long as there is no primary.
 */
const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '1',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '3000',
  'pgautofailover.primary_demote_timeout': '5000',
  'pgautofailover.startup_grace_period': '3000',
};

export function topologyDir() {
  return resolve(process.env.TOPOLOGY_DIR ?? join(ROOT, '.cache/topology'));
}

function ports() {
  const base = Number(process.env.TOPOLOGY_PORT ?? 55400);
  return { monitor: base, node_1: base + 1, node_2: base + 2 };
}

const asRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Debian's packages, installed when missing (sudo when not root). */
export function ensureInstalled() {
  if (existsSync('/usr/bin/pg_autoctl') && existsSync(`${PG_BIN}/pg_ctl`)) return;
  process.stdout.write("installing Debian's pg_auto_failover for PostgreSQL 15\n");
  const sudo = asRoot() ? [] : ['sudo'];
  const run = (args) => execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit' });
  run(['apt-get', 'update', '-qq']);
  run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', 'postgresql-15-auto-failover', 'pg-auto-failover-cli']);
}

/** pg_autoctl's environment: PostgreSQL's binaries first, its files inside the topology's directory. */
function autoctlEnv(dir) {
  return {
    // Only system directories: as the postgres user, root's own (~/.cargo/bin...) cannot be read.
    PATH: `${PG_BIN}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_RUNTIME_DIR: join(dir, 'xdg-run'),
  };
}

/** PostgreSQL refuses to run as root: as root, pg_autoctl runs as the postgres user. */
function command(dir, args) {
  const env = autoctlEnv(dir);
  if (!asRoot()) return { file: '/usr/bin/pg_autoctl', args, env: { ...process.env, ...env } };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return { file: 'runuser', args: ['-u', 'postgres', '--', 'env', ...envArgs, '/usr/bin/pg_autoctl', ...args], env: process.env };
}

/** A long-running pg_autoctl in a process group of its own, its output appended to a log. */
function spawnGroup(dir, name, args) {
  const log = openSync(join(dir, `${name}.log`), 'a');
  const c = command(dir, args);
  const child = spawn(c.file, c.args, { env: c.env, cwd: dir, detached: true, stdio: ['ignore', log, log] });
  child.unref();
  return child.pid;
}

function tail(file, lines = 15) {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
}

function readState(dir) {
  const file = join(dir, 'topology.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

function writeState(dir, state) {
  writeFileSync(join(dir, 'topology.json'), `${JSON.stringify(state, null, 2)}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function query(port, sql, database = 'postgres') {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Until `check` holds; fails at once when `group` (the process group doing the work) is gone. */
async function waitFor(what, check, timeoutMs, group, dir) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (group && !isRunning(group.pgid))
      throw new Error(`${what}: pg_autoctl exited; the end of ${group.name}.log:\n${tail(join(dir, `${group.name}.log`))}`);
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ''}`);
    await sleep(200);
  }
}

/** The nodes as the monitor sees them: name, port, reported and assigned state, health. */
export async function nodeStates(dir = topologyDir()) {
  const p = readState(dir)?.ports ?? ports();
  return query(
    p.monitor,
    'SELECT nodename AS name, nodeport AS port, reportedstate AS reported, goalstate AS assigned, health FROM pgautofailover.node ORDER BY nodeid',
    'pg_auto_failover',
  );
}

/** The node the monitor has as primary and every node reports so, or null. */
export async function primaryNode(dir = topologyDir()) {
  const states = await nodeStates(dir);
  return states.find((n) => n.reported === 'primary' && n.assigned === 'primary')?.name ?? null;
}

/** The service's DATABASE_URL: every node, libpq's way (src/database/primary-locator.ts reads it). */
export function databaseUrl(dir = topologyDir(), database = 'cgs') {
  const p = readState(dir)?.ports ?? ports();
  return `postgres://postgres@${NODES.map((n) => `127.0.0.1:${p[n]}`).join(',')}/${database}?target_session_attrs=read-write`;
}

/** Starts what is not running; creates what does not exist. Resolves when a primary and its standby are in sync. */
export async function up(dir = topologyDir()) {
  ensureInstalled();
  mkdirSync(dir, { recursive: true });
  for (const d of ['xdg-config', 'xdg-data', 'xdg-run']) mkdirSync(join(dir, d), { recursive: true });
  if (asRoot()) execFileSync('chown', ['-R', 'postgres', dir]);
  const p = readState(dir)?.ports ?? ports();
  const state = readState(dir) ?? { ports: p, groups: {} };
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${p.monitor}/pg_auto_failover?sslmode=disable`;

  if (!isRunning(state.groups.monitor)) {
    const created = existsSync(join(dir, 'monitor', 'PG_VERSION'));
    state.groups.monitor = spawnGroup(
      dir,
      'monitor',
      created
        ? ['run', '--pgdata', join(dir, 'monitor')]
        : [
            'create',
            'monitor',
            '--pgdata',
            join(dir, 'monitor'),
            '--pgport',
            String(p.monitor),
            '--hostname',
            '127.0.0.1',
            '--auth',
            'trust',
            '--no-ssl',
            '--run',
          ],
    );
    writeState(dir, state);
    await waitFor(
      'the monitor',
      async () => (await query(p.monitor, 'SELECT 1', 'pg_auto_failover')).length === 1,
      60_000,
      { pgid: state.groups.monitor, name: 'monitor' },
      dir,
    );
    for (const [k, v] of Object.entries(MONITOR_SETTINGS)) await query(p.monitor, `ALTER SYSTEM SET ${k} = '${v}'`, 'pg_auto_failover');
    await query(p.monitor, 'SELECT pg_reload_conf()', 'pg_auto_failover');
  }
  for (const name of NODES) {
    if (isRunning(state.groups[name])) continue;
    await startNode(name, dir, monitorUri, state);
    // One at a time: the second is made a standby of the first (pg_basebackup from it).
    await waitFor(
      `${name} joined`,
      async () => (await nodeStates(dir)).some((n) => n.name === name && ['single', 'primary', 'secondary'].includes(n.reported)),
      120_000,
      { pgid: state.groups[name], name },
      dir,
    );
  }
  await waitFor(
    'a primary and a secondary',
    async () => {
      const s = await nodeStates(dir);
      return (
        s.filter((n) => n.reported === 'primary').length === 1 && s.some((n) => n.reported === 'secondary' && n.assigned === 'secondary')
      );
    },
    120_000,
  );
  const primary = await primaryNode(dir);
  const exists = await query(p[primary], "SELECT 1 FROM pg_database WHERE datname = 'cgs'");
  if (exists.length === 0) await query(p[primary], 'CREATE DATABASE cgs');
  return { dir, url: databaseUrl(dir), ports: p, primary };
}

async function startNode(name, dir, monitorUri, state) {
  const p = state.ports;
  const pgdata = join(dir, name);
  const created = existsSync(join(pgdata, 'PG_VERSION'));
  state.groups[name] = spawnGroup(
    dir,
    name,
    created
      ? ['run', '--pgdata', pgdata]
      : [
          'create',
          'postgres',
          '--pgdata',
          pgdata,
          '--pgport',
          String(p[name]),
          '--name',
          name,
          '--hostname',
          '127.0.0.1',
          '--listen',
          '127.0.0.1',
          '--auth',
          'trust',
          '--no-ssl',
          '--monitor',
          monitorUri,
          '--run',
        ],
  );
  writeState(dir, state);
}

/** Starts a node that was stopped or killed: it rejoins (pg_rewind when it was the primary) as a standby. */
export async function restartNode(name, dir = topologyDir()) {
  const state = readState(dir);
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${state.ports.monitor}/pg_auto_failover?sslmode=disable`;
  await startNode(name, dir, monitorUri, state);
}

/** SIGKILL to a node's whole process group (its keeper and its PostgreSQL): the loss of its machine. */
export function killNode(name, dir = topologyDir()) {
  const state = readState(dir);
  const group = state?.groups?.[name];
  if (group) signalGroup(group, 'SIGKILL');
  // A PostgreSQL the keeper had started outside the group (none should be) goes too.
  const pid = postmasterPid(join(dir, name));
  if (pid) signal(pid, 'SIGKILL');
}

function postmasterPid(pgdata) {
  const file = join(pgdata, 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function signalGroup(pgid, sig) {
  try {
    process.kill(-pgid, sig);
  } catch {
    // already gone
  }
}

function isRunning(pgid) {
  if (!pgid) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops everything (SIGTERM, then SIGKILL after 10 s); `--clean` also removes the directory. */
export async function down(dir = topologyDir(), { clean = false } = {}) {
  const state = readState(dir);
  const groups = Object.values(state?.groups ?? {}).filter(Boolean);
  for (const g of groups) signalGroup(g, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (groups.some(isRunning) && Date.now() < deadline) await sleep(200);
  for (const g of groups) signalGroup(g, 'SIGKILL');
  for (const name of ['monitor', ...NODES]) {
    const pid = postmasterPid(join(dir, name));
    if (pid) signal(pid, 'SIGKILL');
  }
  if (clean) rmSync(dir, { recursive: true, force: true });
  else if (state) writeState(dir, { ...state, groups: {} });
}

export async function status(dir = topologyDir()) {
  const state = readState(dir);
  if (!state) return { dir, running: false };
  try {
    return { dir, running: true, url: databaseUrl(dir), nodes: await nodeStates(dir) };
  } catch (err) {
    return { dir, running: false, error: err.message };
  }
}

async function main() {
  const [verb, ...rest] = process.argv.slice(2);
  if (verb === 'up') {
    const t = await up();
    process.stdout.write(`topology up in ${t.dir}\n  primary: ${t.primary}\n  DATABASE_URL=${t.url}\n`);
  } else if (verb === 'down') {
    await down(topologyDir(), { clean: rest.includes('--clean') });
    process.stdout.write('topology down\n');
  } else if (verb === 'status') {
    process.stdout.write(`${JSON.stringify(await status(), null, 2)}\n`);
  } else {
    process.stderr.write('usage: npm run topology -- up | down [--clean] | status\n');
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
