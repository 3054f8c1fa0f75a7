import type { DataSource, QueryRunner } from 'typeorm';
import { DomainError } from '../../src/common/errors/domain-error.js';

// The medium factories live in test/factories/medium.ts; these names stay for the specs that import them here.
export { givenCommunity, givenEventWithPlayers, givenResourceType, givenScores, givenTenant, givenUser } from '../factories/medium.js';
export { uniqueName } from '../factories/unique-name.js';

/** The identifier of the DomainError a promise rejects with (fails the test when it resolves or rejects otherwise). */
export async function domainErrorOf(pending: Promise<unknown>): Promise<string> {
  const outcome = await pending.then(
    () => new Error('expected a DomainError, the call succeeded'),
    (e: unknown) => e,
  );
  if (outcome instanceof DomainError) return outcome.definition.error;
  throw outcome;
}

/** `success` when the call succeeds, else the DomainError's identifier or the other error's message (for concurrent calls' outcomes). */
export function outcomeOf(pending: Promise<unknown>, success: string): Promise<string> {
  return pending.then(
    () => success,
    (e: unknown) => (e instanceof DomainError ? e.definition.error : e instanceof Error ? e.message : String(e)),
  );
}

/** One row of SQL as numbers (counts and sums come back from pg as strings). */
export async function numbers(ds: DataSource, sql: string, params: unknown[] = []): Promise<Record<string, number>> {
  const [row] = await ds.query<Record<string, string | number | null>[]>(sql, params);
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)]));
}

/**
 * Runs `work` in a transaction that is always rolled back (a migration's `down` and `up`, say), so
 * the other tests of the file keep the database as migrated.
 */
export async function inRolledBackTransaction(ds: DataSource, work: (qr: QueryRunner) => Promise<void>): Promise<void> {
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    await qr.startTransaction();
    await work(qr);
  } finally {
    if (qr.isTransactionActive) await qr.rollbackTransaction();
    await qr.release();
  }
}
