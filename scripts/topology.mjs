// `npm run topology -- up|down|status`: the high-availability layout on one machine, on loopback,
// for the failover tests and for trying it by hand, each part installed from Debian's packages
// when missing:
// - PostgreSQL 15 with pg_auto_failover: a monitor, a primary and a synchronous standby; the
//   service follows the primary through the multi-host URL (src/database/primary-locator.ts);
// - a streaming replica (`replica_1`, a base backup of the primary) that follows whichever node is
//   the primary, for the reads that tolerate lag (src/database/replica-reads.ts);
// - a Redis Cluster of three masters with a replica each (scripts/redis-cluster.mjs), NATS with
//   JetStream, three instances of the built service, and HAProxy in front of them.
// `up` starts all of it; the tests start the parts they need (`up` is the database alone).
//
// Everything lives in TOPOLOGY_DIR (default .cache/topology): data directories, pg_autoctl's
// configuration and state (XDG_CONFIG_HOME / XDG_DATA_HOME pointed inside it), logs, and
// topology.json with the ports and process groups. Ports from TOPOLOGY_PORT (default 55400):
// monitor, node_1, node_2, replica_1, the balancer, NATS, the instances from +6, Redis from +10.
// Each part runs in a process group of its own, so that a test can kill one whole (a node's keeper
// and its PostgreSQL) as the loss of its machine.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  alive,
  asRoot,
  ensureDebian,
  portOpen,
  readJson,
  signal,
  sleep,
  tail,
  waitFor as waitUntil,
  writeJson,
} from './lib/local-processes.mjs';
import * as redisCluster from './redis-cluster.mjs';

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
  return {
    monitor: base,
    node_1: base + 1,
    node_2: base + 2,
    replica_1: base + 3,
    balancer: base + 4,
    nats: base + 5,
    instances: base + 6,
    redis: base + 10,
  };
}

/** Debian's pg_auto_failover for PostgreSQL 15, installed when missing. */
export function ensureInstalled() {
  ensureDebian(['/usr/bin/pg_autoctl', `${PG_BIN}/pg_ctl`], ['postgresql-15-auto-failover', 'pg-auto-failover-cli']);
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

const readState = (dir) => readJson(join(dir, 'topology.json'));
const writeState = (dir, state) => writeJson(join(dir, 'topology.json'), state);

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
function waitFor(what, check, timeoutMs, group, dir) {
  const gone = () =>
    group && !isRunning(group.pgid) && `the process exited; the end of ${group.name}.log:\n${tail(join(dir, `${group.name}.log`))}`;
  return waitUntil(what, check, timeoutMs, { gone });
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
  if (!isRunning(readState(dir).groups.replica_1)) await startReplica(dir, primary);
  return { dir, url: databaseUrl(dir), ports: p, primary, replicaUrl: replicaUrl(dir) };
}

/**
 * The whole layout (`npm run topology -- up`): the formation and its replica, a Redis Cluster
 * (scripts/redis-cluster.mjs), NATS, three instances of the built service and HAProxy in front.
 */
export async function upAll(dir = topologyDir()) {
  const database = await up(dir);
  const redis = await redisCluster.up(join(dir, 'redis'), readState(dir).ports.redis ?? ports().redis);
  const nats = await startNats(dir);
  const instances = await startInstances(dir, { count: 3, redisClusterNodes: redis.nodes });
  const service = await startBalancer(dir, instances);
  return { ...database, redisClusterNodes: redis.nodes, nats, instances, service };
}

/** The URL of the replica (DATABASE_REPLICA_URLS). */
export function replicaUrl(dir = topologyDir(), database = 'cgs') {
  const p = readState(dir)?.ports ?? ports();
  return `postgres://postgres@127.0.0.1:${p.replica_1}/${database}`;
}

/**
 * Starts the replica; makes it first (a base backup of `primary`). It streams from whichever node
 * is writable (libpq's multi-host `primary_conninfo` with target_session_attrs), so it follows a
 * failover onto the new primary's timeline. Not in the formation: pg_auto_failover neither waits
 * for it nor promotes it.
 */
export async function startReplica(dir = topologyDir(), primary = undefined) {
  const state = readState(dir);
  const p = state.ports;
  const pgdata = join(dir, 'replica_1');
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    const from = primary ?? (await primaryNode(dir));
    const backup = asPostgres(dir, `${PG_BIN}/pg_basebackup`, [
      ...['-h', '127.0.0.1', '-p', String(p[from]), '-U', 'pgautofailover_replicator'],
      ...['-D', pgdata, '-R', '-X', 'stream', '-c', 'fast'],
    ]);
    execFileSync(backup.file, backup.args, { env: backup.env, cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const nodes = NODES.map((n) => p[n]);
    const conninfo = `user=pgautofailover_replicator host=${nodes.map(() => '127.0.0.1').join(',')} port=${nodes.join(',')} target_session_attrs=read-write application_name=cgs_replica_1`;
    const auto = join(pgdata, 'postgresql.auto.conf');
    writeFileSync(
      auto,
      [
        readFileSync(auto, 'utf8').trimEnd(),
        '# The topology replica: streams from whichever node is writable and waits for no standby.',
        "synchronous_standby_names = ''",
        `primary_conninfo = '${conninfo}'`,
        "recovery_target_timeline = 'latest'",
        "shared_buffers = '256MB'",
        '',
      ].join('\n'),
    );
  }
  const run = asPostgres(dir, `${PG_BIN}/postgres`, ['-D', pgdata, '-p', String(p.replica_1), '-c', 'logging_collector=off']);
  const log = openSync(join(dir, 'replica_1.log'), 'a');
  const child = spawn(run.file, run.args, { env: run.env, cwd: dir, detached: true, stdio: ['ignore', log, log] });
  child.unref();
  state.groups.replica_1 = child.pid;
  writeState(dir, state);
  await waitFor(
    'the replica',
    async () => (await query(p.replica_1, 'SELECT pg_is_in_recovery() AS standby'))[0].standby === true,
    60_000,
    { pgid: child.pid, name: 'replica_1' },
    dir,
  );
}

/** Stops the replica: `fast` (PostgreSQL's fast shutdown: its sessions are ended) or `kill` (SIGKILL). */
export async function stopReplica(dir = topologyDir(), how = 'fast') {
  const state = readState(dir);
  const group = state?.groups?.replica_1;
  if (how === 'kill') {
    if (group) signalGroup(group, 'SIGKILL');
    const pid = postmasterPid(join(dir, 'replica_1'));
    if (pid) signal(pid, 'SIGKILL');
  } else if (group) {
    signalGroup(group, 'SIGINT');
    const deadline = Date.now() + 10_000;
    while (isRunning(group) && Date.now() < deadline) await sleep(100);
  }
  state.groups.replica_1 = undefined;
  writeState(dir, state);
}

const DEPLOYED_BALANCER = join(ROOT, 'deploy/haproxy/haproxy.cfg');

/** `text` with `from` replaced; throws when `from` is not there, so that the deployed file cannot drift away unseen. */
function rewrite(text, from, to) {
  if (!from.test(text)) throw new Error(`deploy/haproxy/haproxy.cfg no longer has ${from}: update balancerConfig`);
  return text.replace(from, to);
}

/**
 * The load balancer's configuration: the deployment's own (deploy/haproxy/haproxy.cfg, the one
 * docker/compose.ha.yml mounts) made local. Bound to loopback, the instances listed by port instead
 * of found through Docker's DNS, and health checked every 500 ms with one good answer to come back,
 * so that the failover tests measure the database's promotion rather than the check interval.
 * Its maxconn is 4,096: HAProxy wants two descriptors per connection, and a machine with a hard
 * limit of 20,000 open files (some here have it) refuses the deployment's 20,000.
 */
export function balancerConfig({ port, backends }) {
  const servers = backends.map((b, i) => `    server app${i + 1} 127.0.0.1:${b}`).join('\n');
  let text = readFileSync(DEPLOYED_BALANCER, 'utf8');
  text = rewrite(text, /^resolvers docker\n(?:[ \t].*\n|[ \t]*\n(?=[ \t]))*\n/m, '');
  text = rewrite(text, /^(\s+)maxconn 20000$/m, '$1maxconn 4096');
  text = rewrite(text, /^(\s+)bind :8080$/m, `$1bind 127.0.0.1:${port}`);
  text = rewrite(text, / inter 2s fall 1 rise 2 init-addr none resolvers docker/g, ' inter 500 fall 1 rise 1');
  return rewrite(text, /^\s+server-template app 3 app:3000$/gm, servers);
}

/** Starts (or restarts with new backends) HAProxy in front of `backends` (ports); resolves once it answers. */
export async function startBalancer(dir = topologyDir(), backends) {
  ensureDebian(['/usr/sbin/haproxy'], ['haproxy']);
  const state = readState(dir);
  if (isRunning(state.groups.balancer)) await stopGroup(state.groups.balancer);
  const port = state.ports.balancer ?? ports().balancer;
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, balancerConfig({ port, backends }));
  execFileSync('/usr/sbin/haproxy', ['-c', '-q', '-f', cfg], { stdio: ['ignore', 'ignore', 'inherit'] });
  const log = openSync(join(dir, 'balancer.log'), 'a');
  const child = spawn('/usr/sbin/haproxy', ['-W', '-db', '-f', cfg], { cwd: dir, detached: true, stdio: ['ignore', log, log] });
  child.unref();
  state.groups.balancer = child.pid;
  state.ports.balancer = port;
  writeState(dir, state);
  await waitFor('the load balancer', () => portOpen(port), 10_000, { pgid: child.pid, name: 'balancer' }, dir);
  return `http://127.0.0.1:${port}`;
}

/** Starts NATS with JetStream, its store in the topology's directory. */
export async function startNats(dir = topologyDir()) {
  ensureDebian(['/usr/sbin/nats-server'], ['nats-server']);
  const state = readState(dir);
  if (isRunning(state.groups.nats)) return natsUrl(dir);
  const port = state.ports.nats ?? ports().nats;
  const log = openSync(join(dir, 'nats.log'), 'a');
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'nats')];
  const child = spawn('/usr/sbin/nats-server', args, { cwd: dir, detached: true, stdio: ['ignore', log, log] });
  child.unref();
  state.groups.nats = child.pid;
  state.ports.nats = port;
  writeState(dir, state);
  await waitFor('NATS', () => portOpen(port), 10_000, { pgid: child.pid, name: 'nats' }, dir);
  return natsUrl(dir);
}

export function natsUrl(dir = topologyDir()) {
  return `nats://127.0.0.1:${readState(dir)?.ports.nats ?? ports().nats}`;
}

/**
 * Starts `count` instances of the built service (dist/src/main.js) on the topology: the
 * formation's multi-host URL, the replica, NATS and the Redis Cluster when given, one set of
 * secrets made for the topology (kept in topology.json, never in the repository).
 */
export async function startInstances(dir = topologyDir(), { count = 3, redisClusterNodes } = {}) {
  const main = join(ROOT, 'dist/src/main.js');
  if (!existsSync(main)) throw new Error('dist/src/main.js is missing: run `npm run build` first');
  const state = readState(dir);
  state.secrets ??= { SESSION_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  const base = ports().instances;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    // Not a line per health check (the balancer asks each instance twice a second).
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DATABASE_URL: databaseUrl(dir),
    DATABASE_REPLICA_URLS: replicaUrl(dir),
    NATS_URL: natsUrl(dir),
    ...(redisClusterNodes ? { REDIS_CLUSTER_NODES: redisClusterNodes } : {}),
    ...state.secrets,
  };
  const started = [];
  for (let i = 0; i < count; i++) {
    const name = `app_${i + 1}`;
    const port = state.ports[name] ?? base + i;
    state.ports[name] = port;
    if (!isRunning(state.groups[name])) {
      const log = openSync(join(dir, `${name}.log`), 'a');
      const child = spawn(process.execPath, [main], {
        cwd: ROOT,
        env: { ...env, PORT: String(port) },
        detached: true,
        stdio: ['ignore', log, log],
      });
      child.unref();
      state.groups[name] = child.pid;
    }
    writeState(dir, state);
    started.push({ name, port });
  }
  for (const { name, port } of started)
    await waitFor(`${name} ready`, () => httpOk(`http://127.0.0.1:${port}/health/ready`), 90_000, { pgid: state.groups[name], name }, dir);
  return started.map((s) => s.port);
}

async function httpOk(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
  return res.status === 200;
}

async function stopGroup(pgid) {
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isRunning(pgid) && Date.now() < deadline) await sleep(100);
  signalGroup(pgid, 'SIGKILL');
}

/** A PostgreSQL program, as the postgres user when this is root (PostgreSQL refuses root). */
function asPostgres(dir, file, args) {
  const env = autoctlEnv(dir);
  if (!asRoot()) return { file, args, env: { ...process.env, ...env } };
  return { file: 'runuser', args: ['-u', 'postgres', '--', 'env', `HOME=${dir}`, file, ...args], env: process.env };
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

const signalGroup = (pgid, sig) => pgid && signal(-pgid, sig);
const isRunning = (pgid) => Boolean(pgid) && alive(-pgid);

/** Stops everything (SIGTERM, then SIGKILL after 10 s); `--clean` also removes the directory. */
export async function down(dir = topologyDir(), { clean = false } = {}) {
  const state = readState(dir);
  if (existsSync(join(dir, 'redis'))) await redisCluster.down(join(dir, 'redis'));
  const groups = Object.values(state?.groups ?? {}).filter(Boolean);
  for (const g of groups) signalGroup(g, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (groups.some(isRunning) && Date.now() < deadline) await sleep(200);
  for (const g of groups) signalGroup(g, 'SIGKILL');
  for (const name of ['monitor', ...NODES, 'replica_1']) {
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
    const running = Object.fromEntries(Object.entries(state.groups).map(([name, pgid]) => [name, isRunning(pgid)]));
    return { dir, running: true, url: databaseUrl(dir), processes: running, nodes: await nodeStates(dir) };
  } catch (err) {
    return { dir, running: false, error: err.message };
  }
}

async function main() {
  const [verb, ...rest] = process.argv.slice(2);
  if (verb === 'up') {
    const t = await upAll();
    process.stdout.write(
      [
        `topology up in ${t.dir}`,
        `  the service (HAProxy in front of ${t.instances.length} instances): ${t.service}`,
        `  primary: ${t.primary}`,
        `  DATABASE_URL=${t.url}`,
        `  DATABASE_REPLICA_URLS=${t.replicaUrl}`,
        `  REDIS_CLUSTER_NODES=${t.redisClusterNodes}`,
        `  NATS_URL=${t.nats}`,
        '',
      ].join('\n'),
    );
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
