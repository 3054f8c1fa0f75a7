// CPU profile of a running service, for the bench (docs/performance.md):
//   node --import ./scripts/bench-cpu-prof.mjs dist/src/main.js
// starts the V8 sampling profiler at once; `kill -URG <pid>` writes the profile to
// $CPU_PROF_DIR (default bench/results)/service-<pid>-<n>.cpuprofile and starts a new one.
// (`node --cpu-prof` only writes on a clean exit, which a signal-stopped Nest app never makes; SIGUSR2
// is one of Nest's shutdown signals, SIGUSR1 starts the inspector, so SIGURG, ignored by default.)
// Summarise one with: node scripts/bench-cpu-prof.mjs <file.cpuprofile> [requests]
// (self time by package and function, inclusive time by function, and the busy time by request
// phase: each sample goes to the nearest phase on its stack; with the run's request count, in µs
// per request).
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

  // Inclusive time (each frame once per sample) and the busy time by request phase.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (id) => {
    const cf = byId.get(id).callFrame;
    return `${cf.functionName || '(anon)'} ${cf.url.replace(/.*node_modules\//, '').replace(/.*dist\//, '')}:${cf.lineNumber + 1}`;
  };
  // Checked from the sample's own frame up: the first frame that matches any phase names it.
  const phases = [
    ['socket write', /^(writeUtf8String|writev|writeBuffer|writeLatin1String) /],
    ['res.send / res.json', /^(send express\/lib\/response|response\.json|json express\/lib\/response)/],
    ['response headers', /^(setHeader|header express\/lib\/response)/],
    ['guard', /canActivate src\/access|tryActivate @nestjs/],
    ['pipes', /pipes-consumer|transform src\/app\.setup/],
    ['middleware of src/common', /src\/common\/(logging|security|validation|http)\//],
    ['body parsers', /^(jsonParser|urlencodedParser) /],
    ['Nest handler context', /router-execution-context|router-proxy|router-response-controller|interceptors-consumer/],
    ['Express router', /router\/(index|lib)|express\/lib\/(application|express)/],
    ['HTTP parsing', /_http_server|_http_common|_http_incoming/],
    ['garbage collector', /^\(garbage collector\)/],
    // What runs after an await (handlers, services, pg) has no phase frame above it but this.
    ['after an await (handlers, services, pg)', /task_queues|streams\//],
  ];
  const incl = new Map();
  const byPhase = new Map();
  let busy = 0;
  for (const sample of prof.samples) {
    if (byId.get(sample).callFrame.functionName === '(idle)') continue;
    busy++;
    const seen = new Set();
    let phase;
    for (let id = sample; id !== undefined; id = parent.get(id)) {
      const name = nameOf(id);
      if (!seen.has(name)) {
        seen.add(name);
        incl.set(name, (incl.get(name) ?? 0) + 1);
      }
      phase ??= phases.find(([, re]) => re.test(name))?.[0];
    }
    phase ??= 'other';
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
  }
  const requests = Number(process.argv[3] ?? 0);
  const usPerSample = (prof.endTime - prof.startTime) / total;
  const rows = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, c]) => {
        const perRequest = requests > 0 ? `${((c * usPerSample) / requests).toFixed(1).padStart(7)} µs/req  ` : '';
        return `${((100 * c) / busy).toFixed(1).padStart(5)} %  ${perRequest}${n}`;
      })
      .join('\n');
  const busyLine = requests > 0 ? `, ${((busy * usPerSample) / requests).toFixed(1)} µs per request` : '';
  process.stdout.write(
    `\nbusy samples: ${busy}${busyLine}\n\ninclusive time by function (of busy):\n${rows(incl, 40)}\n\nbusy time by request phase:\n${rows(byPhase, 20)}\n`,
  );
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
