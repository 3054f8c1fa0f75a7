import type { Logger } from '@nestjs/common';
import { BackgroundPass } from './background-pass.js';
import type { Clock } from '../clock/clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Rows one statement deletes: short transactions, so a pass never holds many locks at once. */
export const RETENTION_BATCH = 5_000;

/** One kind of row a retention pass deletes: at most `limit` of those older than `before`, how many it deleted. */
export type RetentionStep = (before: Date, limit: number) => Promise<number>;

/**
 * Deletes rows older than a number of days, once an hour (and a minute after the start), in every
 * instance: each step in turn, batch after batch until one comes back short. The steps take their
 * rows with `SKIP LOCKED`, so instances running at once share the work. 0 days keeps everything.
 */
export class RetentionPass<K extends string> {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pass: BackgroundPass;

  constructor(
    private readonly what: string,
    private readonly days: number,
    private readonly clock: Clock,
    private readonly steps: Record<K, RetentionStep>,
    private readonly log: Logger,
  ) {
    this.pass = new BackgroundPass(
      async () => void (await this.runOnce()),
      (e) => this.log.error(`${what} retention pass failed: ${e.message}`),
    );
  }

  start(): void {
    if (this.days === 0) return;
    this.timers.push(
      setTimeout(() => this.pass.kick(), 60_000),
      setInterval(() => this.pass.kick(), HOUR),
    );
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.pass.stop();
  }

  /** One pass: how many rows each step deleted (`batch`: rows per statement). */
  async runOnce(batch = RETENTION_BATCH): Promise<Record<K, number>> {
    const deleted = Object.fromEntries(Object.keys(this.steps).map((k) => [k, 0])) as Record<K, number>;
    if (this.days === 0) return deleted;
    const before = new Date(this.clock.nowMs() - this.days * DAY);
    for (const [kind, step] of Object.entries(this.steps) as [K, RetentionStep][]) {
      for (;;) {
        const n = await step(before, batch);
        deleted[kind] += n;
        if (n < batch || this.pass.stopped) break;
      }
    }
    if (Object.values<number>(deleted).some((n) => n > 0))
      this.log.log({ ...deleted, before: before.toISOString() }, `${this.what} retention: deleted`);
    return deleted;
  }
}
