import { BackgroundPass } from '../common/background/background-pass.js';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { OutboxWriter } from './outbox.writer.js';
import { retryDelayMs, retryOffsets } from './retry-schedule.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookSender } from './webhook-sender.js';
import { signatureHeader, WEBHOOK_HEADERS } from './webhook-signature.js';
import { WebhooksRepository, type AttemptResult, type ClaimedDelivery } from './webhooks.repository.js';

/**
 * Sends webhook deliveries. In every instance (unless WEBHOOK_WORKER_ENABLED=false) it polls every
 * WEBHOOK_POLL_INTERVAL_MS, and is kicked when this instance commits events that made deliveries.
 * A pass claims a batch of due deliveries with a lease (`WebhooksRepository.claimDue`: one
 * statement, `SKIP LOCKED`), sends them concurrently, records the outcomes in one statement, and
 * goes on while batches come back full. An instance killed mid-batch loses nothing: its leased deliveries are
 * due again when the lease (timeout + 10 s) runs out, and are sent again (at least once; the
 * receiver dedupes by event id).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(WebhookWorker.name);
  private readonly offsets: number[];
  private timer: NodeJS.Timeout | null = null;
  private readonly pass = new BackgroundPass(
    () => this.runOnce(),
    (e) => this.log.error(`webhook pass failed: ${e.message}`),
  );

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    outbox: OutboxWriter,
  ) {
    this.offsets = retryOffsets(config.WEBHOOK_RETRY_BASE_MS, config.WEBHOOK_RETRY_WINDOW_MS);
    // Kicked only by commits that made deliveries: a pass per commit that made none would cost the
    // database a claim statement per write (a purchase, a login) for nothing.
    outbox.onCommitted((_, { deliveries }) => {
      if (deliveries > 0) this.kick();
    });
  }

  onApplicationBootstrap(): void {
    if (!this.config.WEBHOOK_WORKER_ENABLED) return;
    this.timer = setInterval(() => this.kick(), this.config.WEBHOOK_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.pass.stop();
  }

  /** Starts a pass in the background (coalesced with a running one; no-op when disabled). */
  kick(): void {
    if (this.config.WEBHOOK_WORKER_ENABLED) this.pass.kick();
  }

  /** Sends due deliveries until none is due; how many attempts were made. Tests call it directly. */
  async runOnce(): Promise<number> {
    let n = 0;
    for (;;) {
      if (this.pass.stopped) return n;
      const now = this.clock.now();
      const lease = new Date(now.getTime() + this.config.WEBHOOK_TIMEOUT_MS + 10_000);
      const batch = await this.repo.claimDue(now, lease, this.config.WEBHOOK_BATCH_SIZE);
      if (batch.length === 0) return n;
      n += batch.length;
      const results = await Promise.all(batch.map((d) => this.attempt(d)));
      await this.repo.recordResults(results, this.clock.now());
      if (batch.length < this.config.WEBHOOK_BATCH_SIZE) return n;
    }
  }

  private async attempt(d: ClaimedDelivery): Promise<AttemptResult> {
    const attemptedAt = this.clock.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const body = JSON.stringify({
      id: d.eventId,
      type: d.type,
      version: d.version,
      tenantId: d.tenantId,
      occurredAt: d.occurredAt.toISOString(),
      data: d.payload,
    });
    let outcome;
    try {
      const keys = await this.secrets.signingSecrets(d, attemptedAt);
      outcome = await this.sender.send(
        d.url,
        {
          [WEBHOOK_HEADERS.eventId]: d.eventId,
          [WEBHOOK_HEADERS.eventType]: d.type,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signatureHeader(keys, timestamp, body),
          [WEBHOOK_HEADERS.deliveryId]: d.id,
          [WEBHOOK_HEADERS.attempt]: String(d.attempts),
        },
        body,
      );
    } catch (e) {
      outcome = { statusCode: null, error: (e as Error).message, durationMs: 0 };
    }
    const base = { id: d.id, attempts: d.attempts, statusCode: outcome.statusCode, durationMs: outcome.durationMs, attemptedAt };
    if (outcome.error === null) return { ...base, status: 'delivered', error: null, nextAttemptAt: null };
    const delay = retryDelayMs(d.attempts, this.offsets);
    if (delay === null) {
      this.log.warn(`webhook delivery ${d.id} dead-lettered after ${d.attempts} attempts: ${outcome.error}`);
      return { ...base, status: 'dead', error: outcome.error, nextAttemptAt: null };
    }
    return { ...base, status: 'pending', error: outcome.error, nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
  }
}
