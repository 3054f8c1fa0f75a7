import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RetentionPass } from '../common/background/retention-pass.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { OutboxRepository } from './outbox.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * Keeps the outbox from growing with every write forever (`RetentionPass`: hourly, every instance):
 * it deletes the webhook deliveries that finished (delivered or dead) more than
 * OUTBOX_RETENTION_DAYS ago, with their attempts, and then the events older than that which nothing
 * owes any more (no delivery row left, published to NATS). OUTBOX_RETENTION_DAYS=0 keeps everything.
 */
@Injectable()
export class OutboxRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly pass: RetentionPass<'deliveries' | 'events'>;

  constructor(outbox: OutboxRepository, deliveries: WebhooksRepository, config: AppConfig, clock: Clock) {
    this.pass = new RetentionPass(
      'outbox',
      config.OUTBOX_RETENTION_DAYS,
      clock,
      // Deliveries first: the deliveries list joins each to its event.
      {
        deliveries: (before, n) => deliveries.deleteFinishedBefore(before, n),
        events: (before, n) => outbox.deleteSettledBefore(before, n),
      },
      new Logger(OutboxRetention.name),
    );
  }

  onApplicationBootstrap(): void {
    this.pass.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.pass.stop();
  }

  /** One pass: what it deleted. Tests call it directly (`batch`: rows per statement). */
  runOnce(batch?: number): Promise<{ deliveries: number; events: number }> {
    return this.pass.runOnce(batch);
  }
}
