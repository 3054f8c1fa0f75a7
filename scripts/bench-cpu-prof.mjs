// CPU profile of a running service, for the bench (docs/performance.md):
//   node --import ./scripts/bench-cpu-prof.mjs dist/src/main.js
// starts the V8 sampling profiler at once; `kill -URG <pid>` writes the profile to
// $CPU_PROF_DIR (default bench/results)/service-<pid>-<n>.cpuprofile and starts a new one.
// (`node --cpu-prof` only writes on a clean exit, which a signal-stopped Nest app never makes; SIGUSR2
// is one of Nest's shutdown signals, SIGUSR1 starts the inspector, so SIGURG, ignored by default.)
// Summarise one with: node scripts/bench-cpu-prof.mjs <file.cpuprofile>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

if (process.argv[1]?.endsWith('bench-cpu-prof.mjs') && process.argv[2]) {
  // Summary mode: self time by package/file and by function.
  const prof = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const total = prof.samples.length;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const s of prof.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const bucket = (url) => {
    if (!url) return '(native/idle/gc)';
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1];
    if (url.startsWith('node:')) return 'node core';
    const d = /dist\/(src\/[^/]+)/.exec(url);
    return d ? d[1] : url;
  };
  const byPkg = new Map();
  const byFn = new Map();
  for (const [id, c] of counts) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const pkg = cf.functionName === '(idle)' ? '(idle)' : cf.functionName === '(garbage collector)' ? '(gc)' : bucket(cf.url);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + c);
    const fn = `${cf.functionName || '(anon)'} ${bucket(cf.url)}:${cf.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + c);
  }
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, c]) => `${((100 * c) / total).toFixed(1).padStart(5)} %  ${n}`)
      .join('\n');
  process.stdout.write(`${total} samples\n\nself time by package:\n${top(byPkg, 25)}\n\nself time by function:\n${top(byFn, 30)}\n`);
} else if (!globalThis.__benchCpuProf) {
  // Once per process, even if the module is evaluated twice.
  globalThis.__benchCpuProf = true;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  let n = 0;
  let busy = false;
  process.on('SIGURG', async () => {
    if (busy) return;
    busy = true;
    try {
      const { profile } = await session.post('Profiler.stop');
      const dir = process.env.CPU_PROF_DIR ?? 'bench/results';
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `service-${process.pid}-${++n}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(`cpu profile written: ${file}\n`);
      await session.post('Profiler.start');
    } catch (e) {
      process.stderr.write(`cpu profile failed: ${String(e)}\n`);
    } finally {
      busy = false;
    }
  });
}
