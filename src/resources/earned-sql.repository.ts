/**
 * SQL text about `resource_balances` that other modules' statements embed, so the table is named
 * only here (resources owns it): a participant's score is the earned amount of the event's scoped
 * resource, copied in the same UPDATE that writes it (one statement, safe to run concurrently).
 */

/** The user's earned amount of the resource type, or 0: `typeId` and `userId` are SQL expressions (parameters or columns). */
export function earnedOrZeroSql(typeId: string, userId: string): string {
  return `COALESCE(
         (SELECT b.earned FROM resource_balances b WHERE b.resource_type_id = ${typeId} AND b.user_id = ${userId}), 0)`;
}
