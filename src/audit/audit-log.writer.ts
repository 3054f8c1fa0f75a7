import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AuditLogRepository, type NewAuditEntry } from './audit-log.repository.js';

/** How long entries wait to be written together. */
const BATCH_DELAY_MS = 100;
const MAX_BATCH = 500;
/** Entries waiting for their batch (a slow or unreachable database lets them pile up); beyond this new ones are dropped (and logged). */
const MAX_QUEUED = 10_000;
/** After a failed write the entries wait 1 s, then 2, 4... at most 30 s, for at most 8 attempts in a row (about 2 minutes). */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30_000;
const MAX_ATTEMPTS = 8;

/**
 * Writes audit entries after the responses they describe, in batches, off the request path: a
 * request never waits for its entry nor fails with it. A failed write puts its entries back at
 * the head of the queue and tries again after a backoff (a database restart or failover loses
 * nothing); after MAX_ATTEMPTS failures in a row, or at shutdown, what is left is logged and
 * dropped. Entries still queued are written when the application closes, and lost if the process
 * dies first (docs/decisions.md).
 */
@Injectable()
export class AuditLogWriter implements OnModuleDestroy {
  private readonly logger = new Logger(AuditLogWriter.name);
  private queue: NewAuditEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Failed writes in a row. */
  private failures = 0;
  private closing = false;

  constructor(private readonly repo: AuditLogRepository) {}

  /** Entries waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  record(entry: NewAuditEntry): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.logger.warn(`audit log queue full: dropped the entry of ${entry.method} ${entry.route} (tenant ${entry.tenantId})`);
      return;
    }
    this.queue.push(entry);
    // A pending retry's timer stays: it is the backoff.
    this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS).unref();
  }

  /** Writes every entry queued so far; resolves when they are written, or queued again after a failure. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.flush();
  }

  private async write(batch: NewAuditEntry[]): Promise<void> {
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      try {
        await this.repo.insertMany(batch.slice(i, i + MAX_BATCH));
        this.failures = 0;
      } catch (err) {
        const rest = batch.slice(i);
        this.failures++;
        if (this.closing || this.failures >= MAX_ATTEMPTS) {
          this.logger.error({ err, entries: rest.length, attempts: this.failures }, 'audit log write failed; entries dropped');
          this.failures = 0;
          return;
        }
        // Oldest first, in front of what came meanwhile; over the bound, the newest are dropped as in `record`.
        const queued = [...rest, ...this.queue];
        if (queued.length > MAX_QUEUED) this.logger.warn(`audit log queue full: dropped ${queued.length - MAX_QUEUED} entries`);
        this.queue = queued.slice(0, MAX_QUEUED);
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (this.failures - 1));
        this.logger.warn({ err, entries: rest.length, retryInMs: delay }, 'audit log write failed; retrying');
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.flush(), delay).unref();
        return;
      }
    }
  }
}
