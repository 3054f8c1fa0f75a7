import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';

/** At most this often per key and process does a summary fold run while writes keep coming. */
const FOLD_INTERVAL_MS = 100;
/** After a fold that found its row held by another transaction. */
const BUSY_RETRY_MS = 1_000;

/** Runs one fold; false: the row was held by another transaction (nothing done), try again later. */
export type Fold = () => Promise<boolean>;

interface Pending {
  fold: Fold;
  again: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

/**
 * Refreshes summary columns of sharded counters after their writes commit (a listing's `sold`, an
 * item's `granted`: docs/decisions.md, "Store and prizes"), coalesced per key: the first write
 * schedules a fold at once, writes meanwhile ask for one more, which runs FOLD_INTERVAL_MS after
 * the last one ended. So a hot listing's row is written a few times a second per process however
 * many purchases commit, and the summary catches up within about FOLD_INTERVAL_MS of the last one.
 * A fold never waits for a row lock (a management change or a stuck session holding the row must
 * not take connections): it reports the row busy and runs again BUSY_RETRY_MS later. A fold that
 * fails (or a process that stops before it runs) leaves the summary behind until the next write of
 * that key: summaries are read by people and dashboards, never to decide anything.
 */
@Injectable()
export class SummaryFolds implements OnModuleDestroy {
  private readonly logger = new Logger(SummaryFolds.name);
  private readonly pending = new Map<string, Pending>();
  private stopped = false;

  /** Asks for `fold` to run for `key` (e.g. `listing:<id>`) after the caller's commit. */
  schedule(key: string, fold: Fold): void {
    if (this.stopped) return;
    const p = this.pending.get(key);
    if (p) {
      p.fold = fold;
      p.again = true;
      return;
    }
    const entry: Pending = { fold, again: false, timer: null, running: null };
    this.pending.set(key, entry);
    this.start(key, entry, 0);
  }

  private start(key: string, entry: Pending, delayMs: number): void {
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.again = false;
      let busy = false;
      entry.running = entry
        .fold()
        .then((done) => {
          busy = !done;
        })
        .catch((err: unknown) => this.logger.warn({ err, key }, 'summary fold failed; the next write of this key retries it'))
        .finally(() => {
          entry.running = null;
          if (this.stopped || !(entry.again || busy)) this.pending.delete(key);
          else this.start(key, entry, busy ? BUSY_RETRY_MS : FOLD_INTERVAL_MS);
        });
    }, delayMs);
    entry.timer.unref();
  }

  /** Drops the folds not started and waits for those running (before the pool closes). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    const running: Promise<void>[] = [];
    for (const entry of this.pending.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      if (entry.running) running.push(entry.running);
    }
    this.pending.clear();
    await Promise.all(running);
  }
}
