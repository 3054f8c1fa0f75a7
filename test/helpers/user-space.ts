import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestApp } from './test-app.js';

let n = 0;

/** A community row, written directly (the tests of socials, profile and notifications need only its id and slug). */
export async function givenCommunityRow(
  t: TestApp,
  tenant: TenantCredentials,
  slug = `c${++n}-${Math.random().toString(36).slice(2, 7)}`,
): Promise<{ id: string; slug: string }> {
  const [row] = await t.dataSource.query<{ id: string }[]>(
    'INSERT INTO communities (tenant_id, slug, name) VALUES ($1, $2, $3) RETURNING id',
    [tenant.id, slug, `Community ${slug}`],
  );
  return { id: row.id, slug };
}

/** Makes `userId` a member of the community, written directly. */
export async function givenMembership(t: TestApp, tenant: TenantCredentials, communityId: string, userId: string): Promise<void> {
  await t.dataSource.query('INSERT INTO community_members (tenant_id, community_id, user_id, joined_at) VALUES ($1, $2, $3, now())', [
    tenant.id,
    communityId,
    userId,
  ]);
}
