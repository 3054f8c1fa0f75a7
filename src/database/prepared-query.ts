import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
const names = new Map<string, string>();

/**
 * Runs a read statement outside any transaction as a named prepared statement on the pool of the
 * data source (PostgreSQL plans it once per connection instead of on every request). For the hot
 * statements whose planning costs more than their execution, such as the one-statement ranking
 * reads (1.7 ms to plan, 0.9 ms to run at 1M ranked users). Errors are pg's own (same codes as
 * TypeORM's `driverError`). Needs session-level connections (not a transaction-mode pooler).
 */
export async function preparedQuery<T>(dataSource: DataSource, text: string, values: unknown[]): Promise<T[]> {
  let name = names.get(text);
  if (!name) names.set(text, (name = `cgs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  const pool = (dataSource.driver as unknown as { master: PgPool }).master;
  return (await pool.query({ name, text, values })).rows as T[];
}
