import type { DataSource, QueryRunner } from 'typeorm';

/** The PostgreSQL server process of the runner's connection (what `pg_blocking_pids` names). */
export async function backendPid(q: QueryRunner): Promise<number> {
  const [{ pid }] = (await q.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
  return pid;
}

/** How many sessions of the database wait for a lock that the session `pid` holds. */
export async function waitingOn(ds: DataSource, pid: number): Promise<number> {
  const [{ n }] = await ds.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND $1::int = ANY (pg_blocking_pids(pid))`,
    [pid],
  );
  return n;
}
