import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/processes.js';

/**
 * The README promises that a newcomer's first `npm start` (an empty embedded database) prints the
 * Swagger URL and the demo credentials, and that the curl tour and the JWE sample work verbatim.
 * This starts `node dist/src/main.js` exactly so (fresh DATA_DIR, no DATABASE_URL), then runs the
 * README's own code blocks against it.
 */
const ROOT = resolve(process.cwd());
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const run = promisify(execFile);
const STEP = '@@README-STEP@@';

function section(title: string): string {
  const start = README.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

type Json = Record<string, unknown> & { items?: Record<string, unknown>[] };

/** What each tour step must answer, recognised by the request it makes. */
const expectations: [RegExp, (body: Json) => void][] = [
  [
    /register\/password/,
    (b) =>
      expect(b).toEqual({
        userId: expect.any(String),
        sessionToken: expect.stringMatching(/^ey/),
        refreshToken: expect.stringMatching(/^rt_/),
      }),
  ],
  [/community\/pixel-pirates" -H/, (b) => expect(b).toMatchObject({ slug: 'pixel-pirates', name: 'Pixel Pirates' })],
  [/\/join\?/, (b) => expect(b).toMatchObject({ created: true, referrerHandle: 'demo' })],
  [/registrationOpen=true/, (b) => expect(b.items!.map((e) => e.slug)).toEqual(expect.arrayContaining(['pirate-cup', 'autumn-regatta']))],
  [/participant\/register/, (b) => expect(b).toMatchObject({ status: 1, statusName: 'REGISTERED' })],
  [/pirate-cup\/leaderboard/, (b) => expect(b.items![0]).toMatchObject({ rank: 1, handle: 'alice' })],
  [/leaderboard\/xp" -H/, (b) => expect(b.items!.map((e) => e.handle)).toEqual(['demo', 'alice', 'bob', 'carol', 'dave'])],
  [
    /season=current/,
    (b) =>
      expect(b.items!.map((e) => [e.handle, e.rank, e.amount])).toEqual([
        ['carol', 1, 60],
        ['dave', 2, 40],
        ['demo', 3, 25],
      ]),
  ],
  [/status=closed/, (b) => expect(b.items![0]).toMatchObject({ name: 'Weekly XP #1', status: 'closed', ranked: 4 })],
  [
    /season=\$PAST_ID/,
    (b) =>
      expect(b.items!.map((e) => [e.handle, e.rank, e.amount])).toEqual([
        ['alice', 1, 420],
        ['demo', 2, 380],
        ['bob', 3, 380],
        ['carol', 4, 150],
      ]),
  ],
  [/reward\/allocations/, (b) => expect(b).toEqual([expect.objectContaining({ tickets: 1, ticketsRemaining: 1 })])],
  [/store\/listings/, (b) => expect(b.items!.map((l) => typeof l.canBuy)).toEqual(['boolean', 'boolean', 'boolean', 'boolean'])],
  [
    /^curl -s "\$BASE\/v1\/quests\/\$QUIZ_ID"/m,
    (b) => expect(b).toMatchObject({ name: "The pirate's code word", completed: false, tasks: [{ kind: 'answer', state: 'todo' }] }),
  ],
  [
    /tasks\/\$TASK_ID\/answer/,
    (b) =>
      expect(b).toMatchObject({
        completed: true,
        completion: { created: true, rewards: [{ type: 'resource', amount: 20 }] },
        tasks: [{ state: 'done' }],
      }),
  ],
  [/refresh-session/, (b) => expect(Object.keys(b)).toEqual(['sessionToken'])],
  // The tour ends in the operator console, served by the service itself.
  [/\/console\//, (b) => expect(b).toEqual({ console: 200 })],
];

describe('the README on a fresh start', () => {
  let proc: ChildProcess;
  let output = '';
  let base = '';
  let dataDir = '';

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it)');
    dataDir = mkdtempSync(join(tmpdir(), 'cgs-readme-'));
    const [port, pgPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    proc = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir, 'data'),
        EMBEDDED_PG_PORT: String(pgPort),
        MINT_WORKER_ENABLED: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 150_000;
    while (!/log in as:.*\n.*try:.*\n.*\n/.test(output)) {
      if (proc.exitCode !== null) throw new Error(`the service exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`no demo credentials printed in time:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM'); // stops the embedded PostgreSQL too
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('prints the Swagger URL and the demo credentials on the first start', () => {
    expect(output).toContain(`Swagger UI: ${base}/docs`);
    expect(output).toContain(`Console:    ${base}/console/`);
    expect(output).toMatch(/Seeding the demo tenant "demo"/);
    expect(output).toMatch(/tenant id: +[0-9a-f-]{36}/);
    expect(output).toMatch(/API key: +cgs_key_\S+/);
    expect(output).toMatch(/shared secret: +[0-9a-f]{64}/);
    expect(output).toContain('log in as:     demo / demo-password');
    expect(output).not.toContain('default tenant');
  });

  it("starts quietly: the banner within 30 lines, Nest's module and route lines only at LOG_LEVEL=debug", () => {
    const banner = output.slice(0, output.indexOf('\n', output.search(/ {2}Ready [\d.]+ s after the process started/)));
    expect(banner).toContain('Community Gaming Service is listening on');
    expect(banner.split('\n').length).toBeLessThanOrEqual(30);
    expect(output).not.toMatch(/InstanceLoader|RoutesResolver|RouterExplorer|Mapped \{/);
  });

  it('runs the five-minute tour verbatim, every step answering as the README says', async () => {
    const steps = blocks(section('A five-minute tour'), 'sh');
    expect(steps.length).toBeGreaterThanOrEqual(10);
    const script = ['set -eo pipefail', ...steps.map((s) => `${s}\nprintf '\\n${STEP}\\n'`)].join('\n');
    const { stdout } = await run('bash', ['-c', script], {
      cwd: dataDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BASE: base },
      timeout: 60_000,
    });
    const outputs = stdout.split(`\n${STEP}\n`);
    const checked = new Set<RegExp>();
    steps.forEach((step, i) => {
      const out = outputs[i].trim();
      if (!step.includes('curl')) return expect(out).toBe('');
      let body: Json;
      try {
        body = JSON.parse(out) as Json;
      } catch {
        throw new Error(`step ${i} did not answer JSON:\n${step}\n---\n${out}`);
      }
      const isError = typeof body.code === 'number' && typeof body.error === 'string';
      expect({ step, isError, body: isError ? body : undefined }).toEqual({ step, isError: false, body: undefined });
      for (const [pattern, check] of expectations) {
        if (pattern.test(step)) {
          check(body);
          checked.add(pattern);
        }
      }
    });
    expect(checked.size).toBe(expectations.length);
  });

  it('logs in with the JWE sample, built with jose and the printed shared secret', async () => {
    const [sample] = blocks(section('OAuth logins'), 'js');
    const secret = /shared secret: +([0-9a-f]{64})/.exec(output)![1];
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', sample], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BASE: base, CGS_SHARED_SECRET: secret },
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^200 /);
    expect(stdout).toMatch(/sessionToken: 'ey/);
  });

  it('lists every configuration key of src/config/app-config.ts in its table', () => {
    const source = readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8');
    const keys = [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??[ :=]/gm)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(25);
    const table = section('Configuration');
    expect(keys.filter((k) => !table.includes(`\`${k}\``))).toEqual([]);
  });
});
