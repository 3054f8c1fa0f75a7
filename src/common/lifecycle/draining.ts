import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Whether this process is shutting down (SIGTERM, src/common/lifecycle/graceful-shutdown.ts).
 * From the moment it begins: readiness answers 503, every answer says `Connection: close`, live
 * streams end (their clients reconnect to another instance), and what registered with `onBegin`
 * runs once.
 */
@Injectable()
export class Draining {
  private readonly logger = new Logger(Draining.name);
  private since: number | null = null;
  private readonly listeners: (() => void)[] = [];
  /** Answers not yet finished: those whose headers are still unsent say `Connection: close` once draining begins. */
  private readonly inFlight = new Set<ServerResponse>();

  get active(): boolean {
    return this.since !== null;
  }

  /** Runs `listener` when draining begins (at once when it already has). */
  onBegin(listener: () => void): void {
    if (this.active) listener();
    else this.listeners.push(listener);
  }

  /** Answers being written now. */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * The first middleware of every request. After the signal its answer closes the connection, so a
   * client that keeps connections alive (a proxy's pool) opens its next one elsewhere: the process
   * is never kept alive by a busy kept-alive connection.
   */
  readonly middleware = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (this.since !== null) res.setHeader('Connection', 'close');
    else {
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
    }
    next();
  };

  begin(): void {
    if (this.active) return;
    this.since = Date.now();
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const listener of this.listeners.splice(0)) {
      try {
        listener();
      } catch (err) {
        this.logger.error(`a drain listener failed: ${(err as Error).message}`);
      }
    }
  }
}
