// The parts the local layouts (scripts/topology.mjs, scripts/redis-cluster.mjs) share: Debian's
// packages installed when missing, detached processes and their signals, a JSON state file, ports,
// and waiting for a condition.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

export const asRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Debian's `packages`, installed (sudo when not root) unless every one of `programs` exists. */
export function ensureDebian(programs, packages) {
  if (programs.every((p) => existsSync(p))) return;
  process.stdout.write(`installing Debian's ${packages.join(', ')}\n`);
  const sudo = asRoot() ? [] : ['sudo'];
  const run = (args) => execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit' });
  run(['apt-get', 'update', '-qq']);
  run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', ...packages]);
}

/** The last lines of a log, for an error that says why a process stopped. */
export function tail(file, lines = 15) {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
}

export function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

export function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Whether the process (or, with a negative id, the process group) exists. */
export function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends `sig` to the process (a negative id: the group), which may be gone already. */
export function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Whether something accepts connections on the loopback port. */
export function portOpen(port) {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Whether the loopback port can be listened on. */
export function portFree(port) {
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
  });
}

/**
 * Until `check` holds, every `intervalMs`; `gone` (optional) returns why waiting is pointless
 * (the process doing the work exited), which fails at once.
 */
export async function waitFor(what, check, timeoutMs, { intervalMs = 200, gone } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    const reason = gone?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ''}`);
    await sleep(intervalMs);
  }
}
