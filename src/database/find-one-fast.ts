import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { preparedQuery } from './prepared-query.js';

interface Statement {
  sql: string;
  keys: string[];
  metadata: EntityMetadata;
}
const statements = new WeakMap<EntityMetadata, Map<string, Statement>>();

/**
 * `findOneBy(where)` for the hottest lookups (a community, a resource type on every ranking or
 * leaderboard request): the same row, hydrated the same way (each column through the driver's
 * `prepareHydratedValue`, relations left unloaded, as `findOneBy` leaves them), but the SELECT is
 * built once per entity and set of keys instead of on every call. The query builder spent more
 * CPU than PostgreSQL on these one-row reads (docs/performance.md). Only for plain columns:
 * `where` holds column property names with non-null values.
 */
export async function findOneFast<T extends ObjectLiteral>(em: EntityManager, target: EntityTarget<T>, where: Partial<Record<keyof T & string, unknown>>): Promise<T | null> {
  const metadata = em.connection.getMetadata(target);
  const keys = Object.keys(where).sort();
  let byKeys = statements.get(metadata);
  if (!byKeys) statements.set(metadata, (byKeys = new Map()));
  let st = byKeys.get(keys.join(','));
  if (!st) {
    const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const columns = metadata.columns.filter((c) => !c.isVirtual && !c.embeddedMetadata);
    const conditions = keys.map((k, i) => {
      const column = metadata.findColumnWithPropertyName(k);
      if (!column) throw new Error(`findOneFast: ${metadata.name} has no column ${k}`);
      return `${q(column.databaseName)} = $${i + 1}`;
    });
    const table = metadata.schema ? `${q(metadata.schema)}.${q(metadata.tableName)}` : q(metadata.tableName);
    st = { sql: `SELECT ${columns.map((c) => q(c.databaseName)).join(', ')} FROM ${table} WHERE ${conditions.join(' AND ')} LIMIT 1`, keys, metadata };
    byKeys.set(keys.join(','), st);
  }
  const values = st.keys.map((k) => (where as Record<string, unknown>)[k]);
  // Outside a transaction the statement is prepared once per pooled connection.
  const rows: Record<string, unknown>[] = em.queryRunner ? await em.query(st.sql, values) : await preparedQuery(em.connection, st.sql, values);
  if (rows.length === 0) return null;
  const entity = st.metadata.create(undefined, { fromDeserializer: true }) as T;
  const driver = em.connection.driver;
  for (const column of st.metadata.columns) {
    if (column.isVirtual || column.embeddedMetadata) continue;
    column.setEntityValue(entity, driver.prepareHydratedValue(rows[0][column.databaseName], column));
  }
  return entity;
}
