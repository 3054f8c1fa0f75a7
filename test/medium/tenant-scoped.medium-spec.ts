import { CommunitiesModule } from '../../src/communities/communities.module.js';
import { CommunitiesRepository } from '../../src/communities/communities.repository.js';
import { QuestsRepository } from '../../src/quests/quests.repository.js';
import { QuestsModule } from '../../src/quests/quests.module.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { onStatements } from '../helpers/pg-statements.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenTenant } from './fixtures.js';

/**
 * TenantScopedRepository on the real database (src/database/tenant-scoped.repository.ts): a key
 * as it arrives in a path finds the tenant's row by id or by slug, never another tenant's, and a
 * key that cannot match sends nothing.
 */
describe('TenantScopedRepository (medium: CommunitiesRepository on PostgreSQL)', () => {
  let t: ModuleTest;
  let repo: CommunitiesRepository;
  let tenantId: string;
  let otherTenant: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [CommunitiesModule, QuestsModule, TenantsModule] });
    repo = t.get(CommunitiesRepository);
    [tenantId, otherTenant] = [await givenTenant(t), await givenTenant(t)];
  });
  afterAll(() => t?.close());

  it('finds the row by its id in any case and by its slug in any case', async () => {
    const id = await givenCommunity(t, tenantId);
    const { slug } = (await repo.findById(tenantId, id))!;
    expect((await repo.findByIdOrSlug(tenantId, id.toUpperCase()))?.id).toBe(id);
    expect((await repo.findByIdOrSlug(tenantId, ` ${slug.toUpperCase()} `))?.id).toBe(id);
    expect((await repo.findById(tenantId, id.toUpperCase()))?.slug).toBe(slug);
  });

  it("never finds another tenant's row, by id or by slug", async () => {
    const id = await givenCommunity(t, otherTenant);
    const { slug } = (await repo.findById(otherTenant, id))!;
    expect(await repo.findById(tenantId, id)).toBeNull();
    expect(await repo.findByIdOrSlug(tenantId, id)).toBeNull();
    expect(await repo.findByIdOrSlug(tenantId, slug)).toBeNull();
  });

  it('sends no statement for a key that cannot match', async () => {
    const sent: string[] = [];
    const stop = await onStatements(t.dataSource, (sql) => sent.push(sql));
    try {
      expect(await repo.findById(tenantId, 'not-a-uuid')).toBeNull();
      expect(await repo.findByIdOrSlug(tenantId, '   ')).toBeNull();
      expect(await repo.findByIdOrSlug(tenantId, 'x'.repeat(65))).toBeNull();
      // A table without a slug column finds by id only.
      expect(await t.get(QuestsRepository).findByIdOrSlug(tenantId, 'daily-login')).toBeNull();
    } finally {
      stop();
    }
    expect(sent).toEqual([]);
  });
});
