/**
 * The ledger's invariants, read from the database, for every (user, resource type): Σ delta =
 * balance, Σ earned_delta = earned, 0 ≤ balance ≤ earned. `mismatched` and `negative` must be 0;
 * `balances` is how many pairs were checked. `query` runs SQL and answers its rows (a pg pool in
 * the reliability suite, a DataSource in the service tests).
 */
export async function ledgerInvariants(
  query: (sql: string) => Promise<unknown[]>,
): Promise<{ mismatched: number; negative: number; balances: number }> {
  const [row] = (await query(`
    WITH sums AS (
      SELECT tenant_id, user_id, resource_type_id, sum(delta)::numeric AS delta, sum(earned_delta)::numeric AS earned
      FROM resource_ledger GROUP BY 1, 2, 3
    )
    SELECT
      count(*) FILTER (WHERE s.delta IS DISTINCT FROM b.balance::numeric OR s.earned IS DISTINCT FROM b.earned::numeric)::int AS mismatched,
      count(*) FILTER (WHERE b.balance < 0 OR b.earned < b.balance)::int AS negative,
      count(*)::int AS balances
    FROM resource_balances b
    FULL JOIN sums s USING (tenant_id, user_id, resource_type_id)`)) as { mismatched: number; negative: number; balances: number }[];
  return row;
}
