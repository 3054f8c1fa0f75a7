/** Child processes of the bench: the service, the bare NestJS app, the raw pg load; RSS from /proc. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { sleep } from './util.js';

export interface Child {
  proc: ChildProcess;
  /** Everything the child printed (stdout and stderr), for diagnostics and credentials. */
  output: () => string;
  stop: () => Promise<void>;
}

export function startChild(command: string, args: string[], env: Record<string, string | undefined>, cwd = process.cwd()): Child {
  const proc = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out += b.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  // BENCH_SERVICE_LOG: every line the children write, whole, to that file (for traces too long to keep).
  const logFile = process.env.BENCH_SERVICE_LOG;
  if (logFile) {
    const file = createWriteStream(logFile, { flags: 'a' });
    proc.stdout?.pipe(file, { end: false });
    proc.stderr?.pipe(file, { end: false });
    proc.once('close', () => file.end());
  }
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!done) {
        proc.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Waits until `child` has printed `text`; fails if it exits first or `timeoutMs` passes. */
export async function waitForOutput(child: Child, text: string, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!child.output().includes(text)) {
    if (child.proc.exitCode !== null) throw new Error(`exited before "${text}":\n${child.output().slice(-2000)}`);
    if (Date.now() - t0 > timeoutMs) throw new Error(`no "${text}" within ${timeoutMs} ms:\n${child.output().slice(-2000)}`);
    await sleep(100);
  }
}

/** Polls `url` until it answers 200; returns the milliseconds waited. Fails if the child exits. */
export async function waitFor200(url: string, child: Child, timeoutMs: number, headers: Record<string, string> = {}): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (child.proc.exitCode !== null)
      throw new Error(`process exited (${child.proc.exitCode}) before ${url} answered:\n${child.output().slice(-3000)}`);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return Date.now() - t0;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${child.output().slice(-3000)}`);
    await sleep(25);
  }
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Node processes under `pid` (depth first, the closest first) whose command line contains `needle`. */
function nodeDescendants(pid: number, needle: string): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      /* gone */
    }
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const p = queue.shift()!;
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)node$/.test(argv[0]) && argv.some((a) => a.includes(needle))) found.push(p);
    } catch {
      /* gone */
    }
    queue.push(...(children.get(p) ?? []));
  }
  return found;
}

/** `pid` and its Node descendants running `needle` (a cluster primary and its workers). */
export const processTree = (pid: number, needle: string): number[] => [pid, ...nodeDescendants(pid, needle)];

/** The pids of every process whose command name is `comm` (e.g. every PostgreSQL server process). */
export function processesNamed(comm: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === comm) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * Counts the instructions these processes (all their threads) retire from now until `stop`, with
 * `perf stat`: unlike CPU time, the count does not move with the machine's other load or its clock,
 * so two builds compare on a noisy machine. NaN where perf is missing or cannot count.
 */
export function countInstructions(pids: readonly number[]): { stop: () => Promise<number> } {
  if (pids.length === 0) return { stop: () => Promise.resolve(NaN) };
  const proc = spawn('perf', ['stat', '-x', ',', '-e', 'instructions', '-p', pids.join(',')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const ended = new Promise<boolean>((resolve) => {
    proc.once('error', () => resolve(false));
    proc.once('close', () => resolve(true));
  });
  return {
    stop: async () => {
      proc.kill('SIGINT');
      if (!(await ended)) return NaN;
      const m = /^(\d+),[^,\n]*,instructions/m.exec(err);
      return m ? Number(m[1]) : NaN;
    },
  };
}

/** The first Node descendant of `pid` whose command line contains `needle` (npm start -> sh -> node). */
export const findDescendant = (pid: number, needle: string): number | undefined => nodeDescendants(pid, needle)[0];

/** RSS of `pid` and of its Node descendants running `needle` (a cluster primary and its workers), in MB. */
export const treeRssMb = (pid: number, needle: string): number => processTree(pid, needle).reduce((sum, p) => sum + rssMb(p), 0);

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command (field N of proc(5) is at N - 3); undefined when it ended. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // Ended, or not on this machine.
  }
}

/**
 * CPU ms of these PostgreSQL backends (utime + stime from /proc): with the pids of the bench
 * database's connections (pg_stat_activity), what the requests cost the database even when other
 * clients load the same server. Ended backends count as 0 (a pool keeps its connections).
 */
export function backendCpuMs(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** CPU ms used so far by these processes together (see backendCpuMs). */
export const cpuMsOf = (pids: readonly number[]): number => [...backendCpuMs(pids).values()].reduce((sum, ms) => sum + ms, 0);

/**
 * What these processes have used so far, together: the kernel's part of their CPU time (stime, ms)
 * and their minor page faults (memory first touched or given back and touched again), which a
 * heap that the kernel keeps taking back costs in system time.
 */
export function kernelSideOf(pids: readonly number[]): { sysMs: number; minorFaults: number } {
  let sysTicks = 0;
  let minorFaults = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (!fields) continue;
    minorFaults += Number(fields[7]);
    sysTicks += Number(fields[12]);
  }
  return { sysMs: (sysTicks * 1000) / TICKS_PER_SECOND, minorFaults };
}

/**
 * CPU time used so far by every PostgreSQL server process on this machine (backends, WAL writer,
 * checkpointer...) and by those that ended, in ms, from /proc: the database's cost of a scenario is the difference over
 * its measured run divided by its requests. Meaningful when the bench is the database's only
 * client (a quiet machine); NaN where /proc is not there.
 */
export function postgresCpuMs(): number {
  let ticks = 0;
  let found = false;
  let dirs: string[];
  try {
    dirs = readdirSync('/proc');
  } catch {
    return NaN;
  }
  for (const d of dirs) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14-17 of stat (utime, stime, cutime, cstime) are at 11-14 after the command. The
      // children's part is the time of the backends that ended (the postmaster reaped them):
      // without it a connection closed during a run would take its time out of the sum.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      found = true;
    } catch {
      // The process ended meanwhile.
    }
  }
  return found ? (ticks * 1000) / TICKS_PER_SECOND : NaN;
}
