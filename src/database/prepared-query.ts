import { createHash } from 'node:crypto';
import type { QueryConfig, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';

const names = new Map<string, string>();

/**
 * Runs a read statement outside any transaction as a named prepared statement on a pooled
 * connection (PostgreSQL plans it once per connection instead of on every request). For the hot
 * statements whose planning costs more than their execution, such as the one-statement ranking
 * reads, which take longer to plan than to run (docs/performance.md). Errors are pg's own (same codes as
 * TypeORM's `driverError`). Needs session-level connections (not a transaction-mode pooler).
 *
 * The connection comes from a TypeORM query runner (`connect()` is its public way to the driver's
 * connection): while it is out, TypeORM's error listener releases it if it fails, as for every
 * other query; TypeORM has no API for named statements.
 */
export async function preparedQuery<T>(dataSource: DataSource, text: string, values: unknown[]): Promise<T[]> {
  let name = names.get(text);
  if (!name) names.set(text, (name = `cgs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  const runner = dataSource.createQueryRunner('master');
  try {
    const client = (await runner.connect()) as { query(config: QueryConfig): Promise<QueryResult> };
    return (await client.query({ name, text, values })).rows as T[];
  } finally {
    await runner.release();
  }
}
