import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import type { DomainError } from '../common/errors/domain-error.js';

/**
 * The data layer's conventions, shared by every `*.repository.ts`:
 *
 * - a repository owns its module's tables: no other file names them (src/ownership test), other
 *   modules ask its service; a join across modules lives in a named `*.read-model.ts`;
 * - every method of a tenant-owned table takes the tenant first (`TenantScopedRepository` holds
 *   its subclasses to it, test/architecture/tenant-scope.spec.ts);
 * - every method takes the caller's entity manager last (`em?: EntityManager`): inside a
 *   transaction the service started, or the pool's manager when omitted (`manager(em)`);
 * - a unique or check violation becomes a domain error in one place (`onConstraintViolation`);
 * - every method is annotated `@GenerateSql(...)` with example arguments, and the SQL it emits is
 *   committed under src/queries/ (`npm run sql`; a test fails when it drifts).
 */
export abstract class BaseRepository {
  protected constructor(protected readonly dataSource: DataSource) {}

  /** The caller's transaction, or the pool. */
  protected manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }
}

/** The constraint a violation with one of these SQLSTATE codes hit, or null for any other error. */
function violated(err: unknown, codes: readonly string[]): string | null {
  if (!(err instanceof QueryFailedError)) return null;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code !== undefined && codes.includes(driver.code) ? (driver.constraint ?? '') : null;
}

/** The rows of an `UPDATE ... RETURNING` run with `query`: TypeORM answers it on PostgreSQL with [rows, affectedCount]. */
export function updatedRows<T>(res: unknown): T[] {
  return (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as T[];
}

/** The constraint a unique violation (23505) hit, or null for any other error. */
export const uniqueViolation = (err: unknown): string | null => violated(err, ['23505']);

/**
 * Runs `work`; a unique (23505) or check (23514) violation of a constraint named in `errors`
 * throws that constraint's domain error instead (others, and every other failure, pass through
 * unchanged). Inside a transaction the violation has aborted it: callers that want to go on use a
 * savepoint.
 */
export async function onConstraintViolation<T>(work: () => Promise<T>, errors: Record<string, () => DomainError>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const constraint = violated(err, ['23505', '23514']);
    const mapped = constraint !== null ? errors[constraint] : undefined;
    if (mapped) throw mapped();
    throw err;
  }
}

/** Example arguments of a repository method for the SQL generator (src/cli/sql-generator.ts). */
export interface GenerateSqlSpec {
  /** The arguments to call it with (ids need not exist: the generator records what is sent). */
  params?: unknown[];
  /** A name when one method is listed twice with different arguments (another branch). */
  name?: string;
  /**
   * Call it inside a transaction (rolled back), passing its entity manager after `params`: for
   * methods that only run in one (row locks).
   */
  inTransaction?: boolean;
}

export interface SqlMethod {
  target: abstract new (...args: never[]) => unknown;
  method: string;
  spec: GenerateSqlSpec;
}

const registry: SqlMethod[] = [];

/** Every method annotated so far (modules register theirs when they are imported). */
export const sqlMethods = (): readonly SqlMethod[] => registry;

/**
 * Marks a repository method whose SQL is committed under src/queries/; each spec is one call
 * with example arguments (a method without it is missing from src/queries: annotate every one).
 */
export function GenerateSql(...specs: GenerateSqlSpec[]): MethodDecorator {
  return (target, key) => {
    for (const spec of specs.length ? specs : [{}])
      registry.push({ target: target.constructor as SqlMethod['target'], method: String(key), spec });
  };
}

/** Example values for `@GenerateSql` arguments. */
export const DUMMY = {
  uuid: '00000000-0000-4000-8000-000000000001',
  uuid2: '00000000-0000-4000-8000-000000000002',
  uuid3: '00000000-0000-4000-8000-000000000003',
  tenant: '00000000-0000-4000-8000-0000000000aa',
  date: new Date('2026-01-01T00:00:00Z'),
  page: { offset: 0, limit: 20 },
} as const;
