import { randomBytes } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { DomainError } from '../../src/common/errors/domain-error.js';
import { CommunitiesService } from '../../src/communities/communities.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsService } from '../../src/tenants/tenants.service.js';
import { UsersService } from '../../src/users/users.service.js';
import type { ModuleTest } from './harness.js';

export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A tenant made by TenantsService (TenantsModule must be among the imports). */
export async function givenTenant(t: ModuleTest): Promise<string> {
  return (await t.get(TenantsService).create({ slug: uniqueName('t') })).id;
}

/** A user of the tenant made by UsersService (UsersModule must be among the imports). */
export async function givenUser(t: ModuleTest, tenantId: string, handle = uniqueName('u').replace('-', '_')): Promise<string> {
  return (await t.get(UsersService).create(t.dataSource.manager, { tenantId, handle })).id;
}

/** A community made by CommunitiesService (CommunitiesModule must be among the imports). */
export async function givenCommunity(t: ModuleTest, tenantId: string): Promise<string> {
  const slug = uniqueName('c');
  return (await t.get(CommunitiesService).create(tenantId, { slug, name: slug })).id;
}

/** A global resource type of a new community, made by ResourcesService (ResourcesModule among the imports). */
export async function givenResourceType(t: ModuleTest, tenantId: string, communityId?: string): Promise<string> {
  const community = communityId ?? (await givenCommunity(t, tenantId));
  const type = await t
    .get(ResourcesService)
    .createType(tenantId, { communityId: community, slug: uniqueName('r'), name: 'Gems', kind: 'global' });
  return type.id;
}

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
