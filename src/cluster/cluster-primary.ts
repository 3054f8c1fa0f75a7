import cluster, { type Worker } from 'node:cluster';
import type { AppConfig } from '../config/app-config.js';
import { EmbeddedDatabase } from '../database/embedded-postgres.js';

/** More worker exits than CRASH_LIMIT within CRASH_WINDOW_MS is a crash loop: the service stops. */
const CRASH_WINDOW_MS = 60_000;
const CRASH_LIMIT = 5;
/** Beyond the workers' own grace (SHUTDOWN_GRACE_MS), the time their shutdown hooks get before SIGKILL. */
const STOP_HOOKS_MS = 15_000;

const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);

/**
 * The primary of `WEB_CONCURRENCY > 1`: it serves nothing itself. It starts the embedded
 * PostgreSQL when there is no DATABASE_URL (the workers find it running and reuse it), forks the
 * first worker (migrations, start-up tasks, background workers), waits until it listens, then forks
 * the others with those turned off. A worker that dies later is forked again in the same role, after
 * a growing delay; a worker that dies during start-up, or more than CRASH_LIMIT exits within
 * CRASH_WINDOW_MS, stops the whole service (exit 1) instead of looping. SIGTERM
 * or SIGINT: the workers drain and close, then the embedded server stops, then the primary exits.
 */
export async function runClusterPrimary(config: AppConfig): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) {
    embedded = new EmbeddedDatabase({ dataDir: `${config.DATA_DIR}/postgres`, port: config.EMBEDDED_PG_PORT, database: 'cgs' });
    say(`no DATABASE_URL: starting embedded PostgreSQL in ${config.DATA_DIR}/postgres`);
    await embedded.start();
  }

  // A scrape of /metrics reaches one worker, which asks here for the whole cluster's figures.
  if (config.METRICS_TOKEN) (await import('../observability/cluster-metrics.js')).serveClusterMetrics();

  if (!config.REDIS_URL && !config.REDIS_CLUSTER_NODES)
    say(
      `no REDIS_URL: each of the ${config.WEB_CONCURRENCY} workers counts the login rate limits on its own; set REDIS_URL (or REDIS_CLUSTER_NODES) to share them`,
    );
  const follower = {
    MIGRATIONS_RUN: 'false',
    STARTUP_TASKS: 'false',
    MINT_WORKER_ENABLED: 'false',
    QUEST_EVENT_WORKER_ENABLED: 'false',
    SEASON_WORKER_ENABLED: 'false',
  };
  const roles = new Map<Worker, number>();
  let stopping = false;

  const shutdown = async (code: number, why?: string) => {
    if (stopping) return;
    stopping = true;
    if (why) say(`${why}: stopping the workers`);
    const workers = [...roles.keys()].filter((w) => !w.isDead());
    const exited = Promise.all(workers.map((w) => new Promise<void>((done) => (w.isDead() ? done() : w.once('exit', () => done())))));
    for (const w of workers) w.process.kill('SIGTERM');
    const timer = setTimeout(
      () => workers.forEach((w) => w.isDead() || w.process.kill('SIGKILL')),
      config.SHUTDOWN_GRACE_MS + STOP_HOOKS_MS,
    );
    await exited;
    clearTimeout(timer);
    await embedded?.stop().catch((err: unknown) => say(`stopping the embedded PostgreSQL failed: ${String(err)}`));
    process.exit(code);
  };

  let started = false;
  const deaths: number[] = [];
  const fork = (index: number): Promise<void> =>
    new Promise((listening, failed) => {
      const worker = cluster.fork(index === 0 ? {} : follower);
      roles.set(worker, index);
      worker.once('listening', () => listening());
      worker.once('exit', (code, signal) => {
        roles.delete(worker);
        if (stopping) return;
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (!started) {
          say(`worker ${index} exited (${how}) during start-up; stopping the service`);
          failed(new Error(`worker ${index} exited (${how})`));
          void shutdown(1);
          return;
        }
        const now = Date.now();
        deaths.push(now);
        while (deaths[0] < now - CRASH_WINDOW_MS) deaths.shift();
        if (deaths.length > CRASH_LIMIT) {
          say(`worker ${index} exited (${how}): ${deaths.length} worker exits within ${CRASH_WINDOW_MS / 1000} s; stopping the service`);
          void shutdown(1);
          return;
        }
        const delay = Math.min(30_000, 250 * 2 ** (deaths.length - 1));
        say(`worker ${index} exited (${how}); starting it again in ${delay} ms`);
        setTimeout(() => void (stopping || fork(index).catch(() => undefined)), delay);
      });
    });

  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));

  try {
    await fork(0);
    await Promise.all(Array.from({ length: config.WEB_CONCURRENCY - 1 }, (_, i) => fork(i + 1)));
    started = true;
    say(`${config.WEB_CONCURRENCY} workers are serving on port ${config.PORT} (primary pid ${process.pid})`);
  } catch {
    // shutdown(1) is under way
  }
}
