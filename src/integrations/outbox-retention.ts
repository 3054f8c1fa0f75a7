import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { BackgroundPass } from '../common/background/background-pass.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { OutboxRepository } from './outbox.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Rows one statement deletes: short transactions, so a pass never holds many locks at once. */
export const RETENTION_BATCH = 5_000;

/**
 * Keeps the outbox from growing with every write forever: once an hour (and a minute after the
 * start), in every instance, it deletes the webhook deliveries that finished (delivered or dead)
 * more than OUTBOX_RETENTION_DAYS ago, with their attempts, and then the events older than that
 * which nothing owes any more (no delivery row left, published to NATS). Batches take their rows
 * with `SKIP LOCKED`, so instances running at once share the work. OUTBOX_RETENTION_DAYS=0 keeps
 * everything.
 */
@Injectable()
export class OutboxRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(OutboxRetention.name);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pass = new BackgroundPass(
    async () => void (await this.runOnce()),
    (e) => this.log.error(`outbox retention pass failed: ${e.message}`),
  );

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly deliveries: WebhooksRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.OUTBOX_RETENTION_DAYS === 0) return;
    this.timers.push(
      setTimeout(() => this.pass.kick(), 60_000),
      setInterval(() => this.pass.kick(), HOUR),
    );
    for (const t of this.timers) t.unref();
  }

  async onModuleDestroy(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.pass.stop();
  }

  /** One pass: what it deleted. Tests call it directly (`batch`: rows per statement). */
  async runOnce(batch = RETENTION_BATCH): Promise<{ deliveries: number; events: number }> {
    const deleted = { deliveries: 0, events: 0 };
    const days = this.config.OUTBOX_RETENTION_DAYS;
    if (days === 0) return deleted;
    const before = new Date(this.clock.now().getTime() - days * DAY);
    deleted.deliveries = await this.drain((n) => this.deliveries.deleteFinishedBefore(before, n), batch);
    deleted.events = await this.drain((n) => this.outbox.deleteSettledBefore(before, n), batch);
    if (deleted.deliveries + deleted.events > 0)
      this.log.log({ ...deleted, before: before.toISOString() }, 'outbox retention: deleted finished deliveries and settled events');
    return deleted;
  }

  /** Runs `step` until a batch comes back short (or the app stops): the rows deleted. */
  private async drain(step: (limit: number) => Promise<number>, batch: number): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await step(batch);
      total += n;
      if (n < batch || this.pass.stopped) return total;
    }
  }
}
