import type { DataSource } from 'typeorm';

/**
 * Calls `record` with every statement the app's pg clients send from now on: its text (spaces
 * collapsed) and the client that sent it (one per connection). At the client, not TypeORM's query
 * subscribers, so named prepared statements (src/database/prepared-query.ts) are seen too. The
 * returned function stops recording.
 */
export async function onStatements(dataSource: DataSource, record: (sql: string, connection: object) => void): Promise<() => void> {
  const pool = (dataSource.driver as unknown as { master: { connect: () => Promise<{ release: () => void }> } }).master;
  const client = await pool.connect();
  const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
  client.release();
  const query = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    const q = args[0] as string | { text: string };
    record((typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').trim(), this);
    return query.apply(this, args);
  };
  return () => {
    proto.query = query;
  };
}

/**
 * The statements `run` sent on the connection that sent its first one, in order: what one
 * operation costs on its own connection (its transaction, when it opens one first), without the
 * work its commit wakes on others (the webhook worker, the buses).
 */
export async function statementsOfFirstConnection(dataSource: DataSource, run: () => Promise<unknown>): Promise<string[]> {
  const recorded: { sql: string; connection: object }[] = [];
  const stop = await onStatements(dataSource, (sql, connection) => recorded.push({ sql, connection }));
  try {
    await run();
  } finally {
    stop();
  }
  return recorded.filter((r) => r.connection === recorded[0].connection).map((r) => r.sql);
}
