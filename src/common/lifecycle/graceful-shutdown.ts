import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Draining } from './draining.js';

export interface ShutdownOptions {
  /** Longest time from the signal until connections still open are cut (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** After SIGTERM, how long new connections are still accepted (SHUTDOWN_DELAY_MS). */
  delayMs: number;
  log: (line: string) => void;
}

/** Beyond the grace, the application's own shutdown (workers, pools, the embedded database) gets this long. */
const HOOKS_MS = 10_000;

/**
 * SIGTERM or SIGINT: drain, then close. In order:
 * 1. draining begins: readiness answers 503, every answer from now on says `Connection: close`
 *    (also those in flight whose headers are unsent), live streams end;
 * 2. after SIGTERM, SHUTDOWN_DELAY_MS more of accepting connections (a load balancer's time to
 *    notice), then no new connection; kept-alive connections that are idle are closed;
 * 3. once every request in flight is answered (their connections then close), or at
 *    SHUTDOWN_GRACE_MS after the signal, whichever comes first, what is still open is cut;
 * 4. the application's shutdown hooks (background workers, Redis, the pool, the embedded
 *    database), then exit 0. A second signal while it runs changes nothing.
 * Nest's `enableShutdownHooks` instead closed the server at once and waited for kept-alive
 * connections however busy they stayed.
 */
export function installGracefulShutdown(app: INestApplication, options: ShutdownOptions): void {
  const server = app.getHttpServer() as Server;
  const draining = app.get(Draining);
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    void shutdown(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        options.log(`shutdown failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    const deadline = Date.now() + options.graceMs;
    setTimeout(() => {
      options.log(`shutdown hooks did not end within ${HOOKS_MS} ms of the grace: exiting`);
      process.exit(1);
    }, options.graceMs + HOOKS_MS).unref();
    draining.begin();
    server.closeIdleConnections();
    if (signal === 'SIGTERM' && options.delayMs > 0) await sleep(Math.min(options.delayMs, options.graceMs));
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    const inTime = await Promise.race([closed.then(() => true), sleep(Math.max(0, deadline - Date.now())).then(() => false)]);
    if (!inTime) {
      options.log(`${draining.requestsInFlight} requests still in flight after ${options.graceMs} ms: closing their connections`);
      server.closeAllConnections();
    }
    await app.close();
  }
}
