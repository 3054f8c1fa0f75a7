import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

/**
 * Real app processes (`node dist/src/main.js`) on loopback ports, for the reliability suite:
 * several instances on one database, kill -9 and restart, database outages.
 */

const ROOT = resolve(process.cwd());
const MAIN = resolve(ROOT, 'dist/src/main.js');
const CLI = resolve(ROOT, 'dist/src/cli/cli.js');

/** Shared by every instance of a run (a real deployment sets both). */
export const SHARED_SECRETS = {
  SESSION_SECRET: `reliability-session-secret-${'x'.repeat(32)}`,
  ENCRYPTION_KEY: 'a1'.repeat(32),
};

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const c = connect(port, '127.0.0.1', () => {
      c.destroy();
      done(true);
    });
    c.once('error', () => done(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface HttpResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
  /** Milliseconds from send to the full response. */
  ms: number;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded) when a string/Buffer is wanted on purpose. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * One HTTP call with node:http (through `agent`); the body is parsed as JSON when it is
 * JSON. Each app instance has its own agent, dropped when the process dies, so a socket of a dead
 * process is never reused (fetch's global pool did, when a later app got the same port).
 */
export function httpCall(baseUrl: string, method: string, path: string, opts: CallOptions = {}, agent?: http.Agent): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const started = performance.now();
  return new Promise<HttpResult>((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: agent ?? false, timeout: opts.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        if (String(res.headers['content-type'] ?? '').includes('json') && text) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: h, ms: performance.now() - started });
      });
    });
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`timeout after ${opts.timeoutMs ?? 30_000} ms`), { name: 'TimeoutError' })),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * No keep-alive: a pooled socket that the server closes after its 5 s keep-alive timeout, picked
 * for a request at that moment, fails with ECONNRESET (a client race, not the service); under
 * 10,000 requests that happens. A new loopback connection per request costs little.
 */
const newAgent = () => new http.Agent({ keepAlive: false, maxSockets: 256 });

export interface AppInstance {
  name: string;
  port: number;
  url: string;
  env: Record<string, string>;
  pid: () => number | undefined;
  /** The exit code of the last process, once it has exited (null while it runs or when a signal ended it). */
  exitCode: () => number | null;
  call: (method: string, path: string, opts?: CallOptions) => Promise<HttpResult>;
  /** Everything the process wrote (stdout and stderr). */
  output: () => string;
  /** Kills the process (SIGKILL by default) and waits for it to exit. */
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  /** Starts the process again on the same port and env, and waits until it is ready. */
  restart: () => Promise<void>;
  /** Graceful stop (SIGTERM, then SIGKILL after 5 s). */
  stop: () => Promise<void>;
}

export interface StartOptions {
  databaseUrl: string;
  name?: string;
  env?: Record<string, string>;
  port?: number;
  /** How long to wait for /health/ready (ms). */
  readyTimeoutMs?: number;
}

/** `redis://...` of this run's Redis, when the run has one (REDIS_URL). */
export function redisUrlFromEnv(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

/** Starts `node dist/src/main.js` on a free loopback port and waits for `/health/ready`. */
export async function startApp(opts: StartOptions): Promise<AppInstance> {
  if (!existsSync(MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it)');
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: opts.databaseUrl,
    // RELIABILITY_APP_LOG=error shows the apps' own logs in `output()` when a test needs them.
    LOG_LEVEL: process.env.RELIABILITY_APP_LOG ?? 'silent',
    PASSWORD_SCRYPT_COST: '1024',
    DB_POOL_SIZE: '10',
    SWAGGER_ENABLED: 'false',
    MINT_WORKER_ENABLED: 'false',
    ...SHARED_SECRETS,
    ...(redisUrlFromEnv() ? { REDIS_URL: redisUrlFromEnv()! } : {}),
    ...(opts.env ?? {}),
  };
  const name = opts.name ?? `app:${port}`;
  const url = `http://127.0.0.1:${port}`;
  let proc: ChildProcess | undefined;
  let out = '';
  let exited: Promise<void> = Promise.resolve();
  let agent = newAgent();

  const launch = async () => {
    const p = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    live.add(p);
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    exited = new Promise<void>((done) =>
      p.once('exit', () => {
        live.delete(p);
        done();
      }),
    );
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
    // freePort's port may be taken meanwhile by a process of a parallel test, whose /health/ready
    // would answer for ours: ours is ready once it said it listens there (its banner) and answers.
    const from = out.length;
    const banner = `listening on ${url}\n`;
    while (Date.now() < deadline) {
      if (p.exitCode !== null || p.signalCode !== null)
        throw new Error(`${name} exited during start-up (${p.exitCode ?? p.signalCode}):\n${out.slice(-3000)}`);
      if (out.includes(banner, from) && (await portAccepts(port))) {
        const r = await httpCall(url, 'GET', '/health/ready', { timeoutMs: 3000 }).catch(() => undefined); // no agent: one-off
        if (r?.status === 200) return;
      }
      await sleep(25); // start-up takes seconds; polling often costs little and ends the wait sooner
    }
    p.kill('SIGKILL');
    throw new Error(`${name} was not ready within ${opts.readyTimeoutMs ?? 60_000} ms:\n${out.slice(-3000)}`);
  };
  await launch();

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
    agent.destroy();
    agent = newAgent();
  };
  return {
    name,
    port,
    url,
    env,
    pid: () => proc?.pid,
    exitCode: () => proc?.exitCode ?? null,
    call: (method, path, o) => httpCall(url, method, path, o, agent),
    output: () => out,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      agent.destroy();
    },
  };
}

/** Parses the default tenant's credentials that the first start on an empty database prints once. */
export function defaultTenantFromOutput(output: string): TenantCredentials {
  const id = /tenant id:\s+(\S+)/.exec(output)?.[1];
  const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
  const sharedSecret = /shared secret:\s+(\S+)/.exec(output)?.[1];
  if (!id || !apiKey || !sharedSecret) throw new Error(`no default tenant credentials in the output:\n${output.slice(-2000)}`);
  return { id, slug: 'default', apiKey, sharedSecret } as TenantCredentials;
}

/** A tenant made with the CLI (`tenant:create --json`) on the given database. */
export function createTenantWithCli(databaseUrl: string, slug: string): TenantCredentials {
  const r = spawnSync(process.execPath, [CLI, 'tenant:create', '--slug', slug, '--json'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...SHARED_SECRETS },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`tenant:create failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as TenantCredentials;
}

/** Sets tenant settings with the CLI (`tenant:settings`); every instance reads them from the database. */
export function setTenantSettings(databaseUrl: string, tenant: string, settings: Record<string, unknown>): void {
  const r = spawnSync(process.execPath, [CLI, 'tenant:settings', '--tenant', tenant, '--set', JSON.stringify(settings), '--json'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...SHARED_SECRETS },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`tenant:settings failed (${r.status}): ${r.stderr}`);
}

/** A direct connection pool to the app database (the tests read and check rows with it). */
export function sqlPool(databaseUrl: string): pg.Pool {
  const p = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  p.on('error', () => undefined); // an idle client cut by the database drop at the end
  return p;
}

export const uniqueSlug = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Several instances on one (new) database: the first start runs the migrations and creates the default tenant. */
export interface Cluster {
  databaseUrl: string;
  databaseName: string;
  apps: AppInstance[];
  tenant: TenantCredentials;
  sql: pg.Pool;
  close: () => Promise<void>;
}

export async function startCluster(
  createDatabase: () => Promise<{ name: string; url: string; drop: () => Promise<void> }>,
  count: number,
  env: Record<string, string> = {},
): Promise<Cluster> {
  const db = await createDatabase();
  const apps: AppInstance[] = [];
  try {
    apps.push(await startApp({ databaseUrl: db.url, env, name: 'app1' }));
    const rest = await Promise.all(
      Array.from({ length: count - 1 }, (_, i) => startApp({ databaseUrl: db.url, env, name: `app${i + 2}` })),
    );
    apps.push(...rest);
  } catch (err) {
    await Promise.all(apps.map((a) => a.kill()));
    await db.drop();
    throw err;
  }
  const sql = sqlPool(db.url);
  return {
    databaseUrl: db.url,
    databaseName: db.name,
    apps,
    tenant: defaultTenantFromOutput(apps[0].output()),
    sql,
    close: async () => {
      await Promise.all(apps.map((a) => a.kill()));
      await sql.end();
      await db.drop();
    },
  };
}
