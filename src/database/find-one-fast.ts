import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { preparedQuery } from './prepared-query.js';

interface Statement {
  sql: string;
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
export async function findOneFast<T extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<T>,
  where: Partial<Record<keyof T & string, unknown>>,
): Promise<T | null> {
  const keys = Object.keys(where).sort();
  const st = statement(
    em,
    target,
    keys.join(','),
    (q, metadata) =>
      keys
        .map((k, i) => {
          const column = metadata.findColumnWithPropertyName(k);
          if (!column) throw new Error(`findOneFast: ${metadata.name} has no column ${k}`);
          return `${q(column.databaseName)} = $${i + 1}`;
        })
        .join(' AND ') + ' LIMIT 1',
  );
  const rows = await run(
    em,
    st.sql,
    keys.map((k) => (where as Record<string, unknown>)[k]),
  );
  return rows.length ? hydrate<T>(em, st.metadata, rows[0]) : null;
}

/**
 * `findBy({ id: In(ids) })` the same way (rows of a list page by their ids, in no particular
 * order): one prepared `= ANY($1)` statement instead of the query builder, which cost a noticeable share
 * of the CPU of a quest list request (docs/performance.md). The entity's primary key is its `id` column.
 */
export async function findByIdsFast<T extends ObjectLiteral>(em: EntityManager, target: EntityTarget<T>, ids: string[]): Promise<T[]> {
  if (ids.length === 0) return [];
  const st = statement(em, target, '#ids', (q) => `${q('id')} = ANY($1::uuid[])`);
  return (await run(em, st.sql, [ids])).map((row) => hydrate<T>(em, st.metadata, row));
}

/**
 * One page of a filtered list and its total: the ids of the page (`alias.id` ordered by `order`)
 * and `COUNT(*)` in parallel over `from` (`FROM <table> <alias> WHERE ...` with `params`), then the
 * page's rows by one `findByIdsFast`, returned in the page's order.
 */
export async function findPageFast<T extends ObjectLiteral & { id: string }>(
  em: EntityManager,
  target: EntityTarget<T>,
  q: { alias: string; from: string; order: string; params: unknown[]; page: { offset: number; limit: number } },
): Promise<{ rows: T[]; total: number }> {
  const [ids, count] = await Promise.all([
    em.query<{ id: string }[]>(
      `SELECT ${q.alias}.id ${q.from} ORDER BY ${q.order} OFFSET ${q.page.offset} LIMIT ${q.page.limit}`,
      q.params,
    ),
    em.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${q.from}`, q.params),
  ]);
  const byId = new Map(
    (
      await findByIdsFast(
        em,
        target,
        ids.map((r) => r.id),
      )
    ).map((row) => [row.id, row]),
  );
  return { rows: ids.flatMap((r) => byId.get(r.id) ?? []), total: count[0].n };
}

function statement<T extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<T>,
  name: string,
  condition: (q: (n: string) => string, metadata: EntityMetadata) => string,
): Statement {
  const metadata = em.connection.getMetadata(target);
  let byName = statements.get(metadata);
  if (!byName) statements.set(metadata, (byName = new Map<string, Statement>()));
  let st = byName.get(name);
  if (!st) {
    const q = (n: string) => `"${n.replace(/"/g, '""')}"`;
    const columns = metadata.columns.filter((c) => !c.isVirtual && !c.embeddedMetadata);
    const table = metadata.schema ? `${q(metadata.schema)}.${q(metadata.tableName)}` : q(metadata.tableName);
    st = { sql: `SELECT ${columns.map((c) => q(c.databaseName)).join(', ')} FROM ${table} WHERE ${condition(q, metadata)}`, metadata };
    byName.set(name, st);
  }
  return st;
}

/** Outside a transaction the statement is prepared once per pooled connection. */
const run = (em: EntityManager, sql: string, values: unknown[]): Promise<Record<string, unknown>[]> =>
  em.queryRunner ? em.query(sql, values) : preparedQuery(em.connection, sql, values);

function hydrate<T extends ObjectLiteral>(em: EntityManager, metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
  const driver = em.connection.driver;
  for (const column of metadata.columns) {
    if (column.isVirtual || column.embeddedMetadata) continue;
    column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return entity;
}
