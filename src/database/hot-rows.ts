import { Injectable } from '@nestjs/common';
import { E_TIMEOUT, Semaphore, withTimeout, type SemaphoreInterface } from 'async-mutex';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';

/**
 * A bulkhead per hot row: at most half the pool's connections of this process run transactions on
 * one hot row (a listing everyone buys) at once; the others wait here, in memory, holding no
 * connection, for at most DB_LOCK_TIMEOUT_MS, then answer 503 `database_timeout`. The lock timeout
 * bounds how long a transaction waits on a held row; this bounds how many wait: with a row held by
 * a stuck session, its buyers can take half the pool, never all of it, so unrelated requests keep
 * answering. Under normal contention it changes little: the row's updates run one at a time anyway.
 */
@Injectable()
export class HotRows {
  private readonly gates = new Map<string, { semaphore: SemaphoreInterface; users: number }>();
  private readonly limit: number;
  private readonly waitMs: number;

  constructor(config: AppConfig) {
    this.limit = Math.max(1, Math.ceil(config.DB_POOL_SIZE / 2));
    this.waitMs = config.DB_LOCK_TIMEOUT_MS || 15_000;
  }

  /** Runs `work` (a transaction that writes the row `key`, e.g. `listing:<id>`) within the row's limit. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let gate = this.gates.get(key);
    if (!gate) this.gates.set(key, (gate = { semaphore: withTimeout(new Semaphore(this.limit), this.waitMs), users: 0 }));
    gate.users++;
    try {
      return await gate.semaphore.runExclusive(work);
    } catch (err) {
      if (err === E_TIMEOUT)
        throw new DomainError(
          CommonErrors.database_timeout,
          `Too many requests are waiting for the same record (${key.split(':')[0]}); retry shortly`,
        );
      throw err;
    } finally {
      if (--gate.users === 0) this.gates.delete(key);
    }
  }
}
