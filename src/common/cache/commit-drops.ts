import type { DataSource, EntityManager } from 'typeorm';

/** Key in `QueryRunner.data`: the scopes to drop at the transaction's commit, per cache. */
const PENDING = 'readCachePendingDrops';
type Pending = Map<object, Set<string>>;

/**
 * Calls `drop(scopes)` with the scopes `dropAtCommit` queued for `owner` (a cache) in a
 * transaction, when that transaction commits; forgets them when it rolls back. Only the outermost
 * commit counts (a savepoint release leaves the transaction active).
 */
export function dropsAtCommit(dataSource: DataSource, owner: object, drop: (scopes: ReadonlySet<string>) => void): void {
  dataSource.subscribers.push({
    afterTransactionCommit: ({ queryRunner: qr }) => {
      const pending = qr.data[PENDING] as Pending | undefined;
      if (qr.isTransactionActive || !pending?.has(owner)) return;
      drop(pending.get(owner)!);
      pending.delete(owner);
    },
    afterTransactionRollback: ({ queryRunner: qr }) => {
      if (!qr.isTransactionActive) (qr.data[PENDING] as Pending | undefined)?.delete(owner);
    },
  });
}

/**
 * Queues `scope` of `owner` to be dropped when the transaction of `em` commits (at once outside
 * one: `dropNow`). Not before: a read between the write and the commit would cache the old state
 * again. `dropsAtCommit` must have been called for `owner`.
 */
export function dropAtCommit(em: EntityManager, owner: object, scope: string, dropNow: (scope: string) => void): void {
  const qr = em.queryRunner;
  if (!qr?.isTransactionActive) return dropNow(scope);
  const pending = ((qr.data[PENDING] as Pending | undefined) ??= new Map()) as Pending;
  const scopes = pending.get(owner) ?? new Set<string>();
  pending.set(owner, scopes.add(scope));
}
