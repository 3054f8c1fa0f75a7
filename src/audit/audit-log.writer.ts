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

/** An entry to write, with the id of the request it records (logged if PostgreSQL refuses the entry; not stored). */
export type AuditRecord = NewAuditEntry & { requestId?: string };

/**
 * PostgreSQL refused the values, not the statement nor the connection: SQLSTATE class 22 (data
 * exception: NUL, an invalid escape in jsonb, too long, out of range) or 23 (integrity constraint).
 * Written again, the same entries fail again: they are sorted out instead of retried.
 */
function isRefusedData(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.driverError?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

/**
 * Writes audit entries after the responses they describe, in batches, off the request path: a
 * request never waits for its entry nor fails with it. A failed write puts its entries back at
 * the head of the queue and tries again after a backoff (a database restart or failover loses
 * nothing); after MAX_ATTEMPTS failures in a row, or at shutdown, what is left is logged and
 * dropped. A batch PostgreSQL refuses for its values is split in halves, down to the entries it
 * refuses, which are logged (with their request ids) and dropped: one bad entry never costs the
 * others of its batch (`storableEntry` makes client text storable first). Entries still queued
 * are written when the application closes, and lost if the process dies first
 * (docs/decisions.md).
 */
@Injectable()
export class AuditLogWriter implements OnModuleDestroy {
  private readonly logger = new Logger(AuditLogWriter.name);
  private queue: AuditRecord[] = [];
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

  record(entry: AuditRecord): void {
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

  private async write(batch: AuditRecord[]): Promise<void> {
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const failed = await this.writeSorting(batch.slice(i, i + MAX_BATCH));
      if (!failed) {
        this.failures = 0;
        continue;
      }
      const { err } = failed;
      const rest = [...failed.rest, ...batch.slice(i + MAX_BATCH)];
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

  /**
   * Writes `entries`; a part PostgreSQL refuses for its values is written again in halves, so a
   * bad entry costs about 2·log2(n) statements and only itself. Any other failure (the database
   * away) stops it: the entries not written yet are returned, in order, to be retried.
   */
  private async writeSorting(entries: AuditRecord[]): Promise<{ err: unknown; rest: AuditRecord[] } | null> {
    const parts = [entries];
    while (parts.length > 0) {
      const part = parts.shift()!;
      try {
        await this.repo.insertMany(part);
      } catch (err) {
        if (!isRefusedData(err)) return { err, rest: [part, ...parts].flat() };
        if (part.length > 1) {
          const half = Math.ceil(part.length / 2);
          parts.unshift(part.slice(0, half), part.slice(half));
          continue;
        }
        const [e] = part;
        this.logger.error(
          { err, requestId: e.requestId, tenantId: e.tenantId, method: e.method, route: e.route },
          'audit log entry refused by the database; dropped',
        );
      }
    }
    return null;
  }
}
