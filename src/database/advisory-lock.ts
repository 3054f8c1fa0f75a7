import type { DataSource } from 'typeorm';

/**
 * Runs `work` holding the session-level advisory lock `key` on a connection of its own: one
 * holder at a time on a database (two instances seeding together). Waiting for the holder is
 * meant to take as long as its work, so no lock timeout applies while waiting.
 */
export async function withAdvisoryLock<T>(dataSource: DataSource, key: number, work: () => Promise<T>): Promise<T> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SET lock_timeout = 0');
    await lock.query(`SELECT pg_advisory_lock(${Math.trunc(key)})`);
    return await work();
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${Math.trunc(key)})`).catch(() => undefined);
    await lock.query('RESET lock_timeout').catch(() => undefined);
    await lock.release();
  }
}
