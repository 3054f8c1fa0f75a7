// `node scripts/redis-cluster.mjs up|down|status`: a Redis Cluster on one machine, on loopback, for
// the failover test (test/topology/redis-cluster.topology-spec.ts) and for trying REDIS_CLUSTER_NODES
// by hand. Six redis-server processes (Debian's redis-server, installed here when missing): three
// masters, each with one replica, without persistence (a node killed and started again comes back
// empty and resyncs from its master).
//
// Everything lives in REDIS_CLUSTER_DIR (default .cache/redis-cluster): one directory per node
// (its nodes.conf, log and pid file) and cluster.json with the ports and pids. Ports from
// REDIS_CLUSTER_PORT (default 30001, below the usual ephemeral ports): six consecutive ones, each node's cluster bus on port + 10000.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  alive as isRunning,
  ensureDebian,
  portFree,
  readJson,
  signal,
  sleep,
  tail,
  waitFor as waitUntil,
  writeJson,
} from './lib/local-processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODES = 6;
/** The cluster bus of a node listens on its port plus this (Redis's own convention). */
const BUS_OFFSET = 10_000;
/**
 * How long a node may not answer before the others count it as failed, in milliseconds (Redis's
 * default is 15 s): on loopback a ping answers in microseconds, and with 1 s a replica is promoted
 * 2 to 3 s after its master is lost (the failure agreed by the masters, then the replica's election delay).
 */
const NODE_TIMEOUT_MS = 1_000;

export function clusterDir() {
  return resolve(process.env.REDIS_CLUSTER_DIR ?? join(ROOT, '.cache/redis-cluster'));
}

const defaultPort = () => Number(process.env.REDIS_CLUSTER_PORT ?? 30_001);

/** Debian's redis-server (it brings redis-cli), installed when missing. */
export function ensureInstalled() {
  ensureDebian(['/usr/bin/redis-server', '/usr/bin/redis-cli'], ['redis-server']);
}

const readState = (dir) => readJson(join(dir, 'cluster.json'));
const writeState = (dir, state) => writeJson(join(dir, 'cluster.json'), state);

/** The state of the cluster that has a node on `port` (the ports a process brought up, else the default directory's). */
const byPort = new Map();
function stateOf(port, dir) {
  const d = dir ?? byPort.get(port) ?? clusterDir();
  const state = readState(d);
  if (!state?.ports.includes(port)) throw new Error(`no node of the Redis Cluster in ${d} on port ${port}`);
  return { dir: d, state };
}

/** `redis-cli -p port ...`, its output; throws when the node does not answer. */
function cli(port, args, timeoutMs = 5_000) {
  return execFileSync('/usr/bin/redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `INFO`/`CLUSTER INFO` lines as an object. */
function fields(text) {
  return Object.fromEntries(
    text
      .split(/\r?\n/)
      .filter((l) => l.includes(':') && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]),
  );
}

/** A first port with six consecutive free ports from it, and their cluster bus ports free too. */
export async function freeBasePort() {
  for (let attempt = 0; attempt < 100; attempt++) {
    // Below Linux's ephemeral ports (32768 up), where a client's socket could take one meanwhile.
    const base = 20_000 + Math.floor(Math.random() * (32_768 - NODES - 20_000));
    const ports = Array.from({ length: NODES }, (_, i) => base + i);
    const free = await Promise.all([...ports, ...ports.map((p) => p + BUS_OFFSET)].map(portFree));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${NODES} consecutive free ports (with their bus ports)`);
}

/** Starts the redis-server of `port` (detached, its output in its directory's log); resolves once it answers PING. */
async function startNode(dir, port) {
  const nodeDir = join(dir, `node-${port}`);
  mkdirSync(nodeDir, { recursive: true });
  const log = openSync(join(nodeDir, 'redis.log'), 'a');
  const child = spawn(
    '/usr/bin/redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      nodeDir,
      '--pidfile',
      join(nodeDir, 'redis.pid'),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(nodeDir, 'nodes.conf'),
      '--cluster-node-timeout',
      String(NODE_TIMEOUT_MS),
      // A master lost must not stop the other masters' slots (Redis's default: the whole cluster
      // refuses commands until every slot has a master again).
      '--cluster-require-full-coverage',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { cwd: nodeDir, detached: true, stdio: ['ignore', log, log] },
  );
  child.unref();
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (!isRunning(child.pid)) throw new Error(`redis-server on ${port} exited; the end of its log:\n${tail(join(nodeDir, 'redis.log'))}`);
    try {
      if (cli(port, ['ping'], 1_000).trim() === 'PONG') return child.pid;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer within 10 s`);
    await sleep(50);
  }
}

/** Until `check` holds. */
const waitFor = (what, check, timeoutMs) => waitUntil(what, check, timeoutMs, { intervalMs: 100 });

/**
 * Starts six nodes on `basePort`... and makes them one cluster (3 masters, 3 replicas); resolves once
 * every node says `cluster_state:ok` and every replica is in sync. A cluster made before in `dir`
 * (its nodes.conf files) is started again as it was.
 */
export async function up(dir = clusterDir(), basePort = readState(dir)?.ports[0] ?? defaultPort()) {
  ensureInstalled();
  mkdirSync(dir, { recursive: true });
  const ports = Array.from({ length: NODES }, (_, i) => basePort + i);
  if (ports[NODES - 1] + BUS_OFFSET > 65_535) throw new Error(`base port ${basePort}: the cluster bus ports would pass 65535`);
  const state = readState(dir) ?? { ports, pids: {} };
  if (state.ports[0] !== basePort) throw new Error(`${dir} holds a cluster on ${state.ports[0]}, not ${basePort}: down --clean it first`);
  for (const port of ports) {
    byPort.set(port, dir);
    if (!isRunning(state.pids[port])) state.pids[port] = await startNode(dir, port);
    writeState(dir, state);
  }
  const created = fields(cli(ports[0], ['cluster', 'info'])).cluster_known_nodes === String(NODES);
  if (!created)
    execFileSync(
      '/usr/bin/redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  await waitFor(
    'cluster_state:ok on every node',
    () => ports.every((p) => fields(cli(p, ['cluster', 'info'])).cluster_state === 'ok'),
    30_000,
  );
  await waitFor(
    'three masters with a replica in sync each',
    async () => {
      const nodes = await clusterNodes(dir);
      const replicas = nodes.filter((n) => n.role === 'replica' && n.linkState === 'connected');
      return (
        nodes.filter((n) => n.role === 'master' && n.slots.length > 0).length === 3 &&
        replicas.length === 3 &&
        replicas.every((r) => fields(cli(r.port, ['info', 'replication'])).master_link_status === 'up')
      );
    },
    30_000,
  );
  return { dir, ports, nodes: ports.map((p) => `127.0.0.1:${p}`).join(',') };
}

/**
 * The cluster as one of its nodes that answers sees it (`CLUSTER NODES`): each node's id, port,
 * role, master id (replicas), flags (`fail`, `pfail`...), link state and slot ranges.
 */
export async function clusterNodes(dir = clusterDir()) {
  const state = readState(dir);
  if (!state) throw new Error(`no Redis Cluster in ${dir}`);
  let last;
  for (const port of state.ports) {
    let text;
    try {
      text = cli(port, ['cluster', 'nodes'], 2_000);
    } catch (err) {
      last = err;
      continue;
    }
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const [id, addr, flags, master, , , , linkState, ...slots] = line.trim().split(' ');
        const f = flags.split(',');
        return {
          id,
          port: Number(addr.split('@')[0].split(':').pop()),
          role: f.includes('master') ? 'master' : f.includes('slave') ? 'replica' : 'unknown',
          master: master === '-' ? null : master,
          flags: f.filter((x) => x !== 'myself'),
          linkState,
          slots,
        };
      });
  }
  throw new Error(`no node of the Redis Cluster in ${dir} answers: ${last?.message}`);
}

/** A section of the node's `INFO` (e.g. `replication`) as an object; throws when the node does not answer. */
export function nodeInfo(port, section) {
  return fields(cli(port, ['info', section], 2_000));
}

/** SIGKILL to the node on `port`: the loss of its machine (nothing is written, its replica takes over). */
export function killNode(port, dir) {
  const { state } = stateOf(port, dir);
  signal(state.pids[port], 'SIGKILL');
}

/** Starts the node on `port` again (empty): it rejoins the cluster from its nodes.conf, as a replica when it was failed over. */
export async function restartNode(port, dir) {
  const { dir: d, state } = stateOf(port, dir);
  if (isRunning(state.pids[port])) return;
  state.pids[port] = await startNode(d, port);
  writeState(d, state);
}

/** Stops every node (SIGTERM, then SIGKILL after 5 s); `clean` also removes the directory. */
export async function down(dir = clusterDir(), { clean = false } = {}) {
  const state = readState(dir);
  const pids = Object.values(state?.pids ?? {}).filter(Boolean);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (pids.some(isRunning) && Date.now() < deadline) await sleep(100);
  for (const pid of pids) signal(pid, 'SIGKILL');
  for (const port of state?.ports ?? []) byPort.delete(port);
  if (clean) rmSync(dir, { recursive: true, force: true });
  else if (state) writeState(dir, { ...state, pids: {} });
}

export async function status(dir = clusterDir()) {
  const state = readState(dir);
  if (!state) return { dir, running: false };
  try {
    return { dir, running: true, REDIS_CLUSTER_NODES: state.ports.map((p) => `127.0.0.1:${p}`).join(','), nodes: await clusterNodes(dir) };
  } catch (err) {
    return { dir, running: false, error: err.message };
  }
}

async function main() {
  const [verb, ...rest] = process.argv.slice(2);
  if (verb === 'up') {
    const c = await up();
    process.stdout.write(`Redis Cluster up in ${c.dir}\n  REDIS_CLUSTER_NODES=${c.nodes}\n`);
  } else if (verb === 'down') {
    await down(clusterDir(), { clean: rest.includes('--clean') });
    process.stdout.write('Redis Cluster down\n');
  } else if (verb === 'status') {
    process.stdout.write(`${JSON.stringify(await status(), null, 2)}\n`);
  } else {
    process.stderr.write('usage: node scripts/redis-cluster.mjs up | down [--clean] | status\n');
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
