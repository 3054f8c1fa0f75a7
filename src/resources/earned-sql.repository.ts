/**
 * SQL text about `resource_balances` and `resource_ledger` that other modules' statements embed,
 * so the tables are named only here (resources owns them): a participant's score is the earned
 * amount of the event's scoped resource, copied in the same UPDATE that writes it (one statement,
 * safe to run concurrently).
 */

/** The user's earned amount of the resource type, or 0: `typeId` and `userId` are SQL expressions (parameters or columns). */
export function earnedOrZeroSql(typeId: string, userId: string): string {
  return `COALESCE(
         (SELECT b.earned FROM resource_balances b WHERE b.resource_type_id = ${typeId} AND b.user_id = ${userId}), 0)`;
}

/**
 * What the user earned of the resource type in ledger entries stamped before `before`, or 0 (Σ
 * earned_delta, so revokes count too): an index range of `ix_resource_ledger_user`. `typeId`,
 * `userId` and `before` are SQL expressions. The balance's `earned` is this sum over every entry.
 */
export function earnedBeforeSql(typeId: string, userId: string, before: string): string {
  return `COALESCE(
         (SELECT SUM(l.earned_delta) FROM resource_ledger l
           WHERE l.resource_type_id = ${typeId} AND l.user_id = ${userId} AND l.created_at < ${before}), 0)::bigint`;
}
