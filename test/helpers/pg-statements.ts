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
