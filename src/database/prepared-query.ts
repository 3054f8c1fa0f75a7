import { createHash } from 'node:crypto';
import type { QueryConfig, QueryResult } from 'pg';
import { DataSource, QueryFailedError, type EntityManager, type QueryRunner } from 'typeorm';

const names = new Map<string, string>();

type PgClient = { query(config: QueryConfig): Promise<QueryResult> };

/**
 * Runs a statement as a named prepared statement: PostgreSQL parses and plans it once per
 * connection instead of at every call. For the hot statements whose parsing and planning cost
 * more than running them: the one-statement ranking reads, the returning login, a grant's
 * statements (docs/performance.md). Only for statements of a fixed text (a name per distinct
 * text, kept by every connection that ran it). Needs session-level connections (not a
 * transaction-mode pooler).
 *
 * `on`: a DataSource or an EntityManager without a transaction take a pooled connection for the
 * statement; an EntityManager of a transaction runs it on the transaction's connection. Errors are
 * TypeORM's `QueryFailedError`, as `EntityManager.query` throws them.
 *
 * The connection comes from a TypeORM query runner (`connect()` is its public way to the driver's
 * connection): while it is out, TypeORM's error listener releases it if it fails, as for every
 * other query; TypeORM has no API for named statements, so its query logger and query
 * subscribers do not see these (pg's own instrumentation, which traces them, does).
 */
export async function preparedQuery<T>(on: DataSource | EntityManager, text: string, values: unknown[]): Promise<T[]> {
  let name = names.get(text);
  if (!name) names.set(text, (name = `cgs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  const inTransaction = on instanceof DataSource ? undefined : on.queryRunner;
  const runner: QueryRunner = inTransaction ?? (on instanceof DataSource ? on : on.connection).createQueryRunner('master');
  try {
    const client = (await runner.connect()) as PgClient;
    try {
      return (await client.query({ name, text, values })).rows as T[];
    } catch (err) {
      throw new QueryFailedError(text, values, err as Error);
    }
  } finally {
    if (!inTransaction) await runner.release();
  }
}
