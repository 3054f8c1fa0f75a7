import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { CommunitiesModule } from '../../src/communities/communities.module.js';
import { ResourceTypesRepository } from '../../src/resources/resource-types.repository.js';
import { ResourcesModule } from '../../src/resources/resources.module.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, uniqueName } from './fixtures.js';

/** ResourcesService's resource types on the real database: lookups in a community by slug or id, updates, slug rules. */
describe('ResourcesService resource types (medium: ResourcesModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let resources: ResourcesService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [ResourcesModule, CommunitiesModule, TenantsModule] });
    resources = t.get(ResourcesService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it("a type is found in its community by slug (any case) or id; another community's, and a reference past 64 characters, are not", async () => {
    const [community, other] = [await givenCommunity(t, tenantId), await givenCommunity(t, tenantId)];
    const slug = uniqueName('gems');
    const type = await resources.createType(tenantId, { communityId: community, slug, name: 'Gems', kind: 'global' });
    expect((await resources.getTypeInCommunity(tenantId, community, slug.toUpperCase())).id).toBe(type.id);
    expect((await resources.getTypeInCommunity(tenantId, community, type.id.toUpperCase())).slug).toBe(slug);
    expect(await domainErrorOf(resources.getTypeInCommunity(tenantId, other, type.id))).toBe('resource_type_not_found');
    expect(await domainErrorOf(resources.getTypeInCommunity(tenantId, community, 'g'.repeat(65)))).toBe('resource_type_not_found');
    expect(await domainErrorOf(resources.getType(tenantId, slug))).toBe('resource_type_not_found');
    expect(await domainErrorOf(resources.getType(await givenTenant(t), type.id))).toBe('resource_type_not_found');
  });

  it('update changes name, description and image; a taken slug and a global type of an event are refused', async () => {
    const community = await givenCommunity(t, tenantId);
    const slug = uniqueName('xp');
    const type = await resources.createType(tenantId, { communityId: community, slug, name: 'XP', kind: 'global' });
    const changed = await resources.updateType(tenantId, type.id, {
      name: 'Experience',
      description: 'Earned by playing',
      imageUrl: 'https://img.example/xp.png',
    });
    expect(changed).toMatchObject({
      id: type.id,
      slug,
      name: 'Experience',
      description: 'Earned by playing',
      imageUrl: 'https://img.example/xp.png',
    });
    expect((await resources.updateType(tenantId, type.id, { imageUrl: null })).imageUrl).toBeNull();
    expect((await resources.getTypeInCommunity(tenantId, community, slug)).name).toBe('Experience');
    expect(await domainErrorOf(resources.createType(tenantId, { communityId: community, slug, name: 'Again', kind: 'scoped' }))).toBe(
      'resource_type_slug_taken',
    );
    expect(
      await domainErrorOf(
        resources.createType(tenantId, {
          communityId: community,
          slug: uniqueName('s'),
          name: 'S',
          kind: 'global',
          questEventId: '00000000-0000-4000-8000-00000000beef',
        }),
      ),
    ).toBe('invalid_resource_type');
  });

  it('binds a scoped type to one event only, and an update of its name made meanwhile keeps the binding', async () => {
    const [community, other] = [await givenCommunity(t, tenantId), await givenCommunity(t, tenantId)];
    const type = await resources.createType(tenantId, { communityId: community, slug: uniqueName('pts'), name: 'Points', kind: 'scoped' });
    const xp = await resources.createType(tenantId, { communityId: community, slug: uniqueName('xp'), name: 'XP', kind: 'global' });
    const [first, second] = [randomUUID(), randomUUID()];
    const bind = (typeId: string, eventId: string, communityId = community) =>
      t.dataSource.transaction((em) => resources.bindScopedType(em, { tenantId, communityId, typeId, eventId }));
    expect(await bind(xp.id, first)).toBe(false);
    expect(await bind(type.id, first, other)).toBe(false);

    // An event takes the type between the update's read of it and its write.
    const repo = t.get(ResourceTypesRepository);
    const findById = repo.findById.bind(repo);
    const read = jest.spyOn(repo, 'findById').mockImplementationOnce(async (...args) => {
      const row = await findById(...args);
      expect(await bind(type.id.toUpperCase(), first)).toBe(true);
      return row;
    });
    try {
      expect(await resources.updateType(tenantId, type.id, { name: 'Cup points' })).toMatchObject({
        name: 'Cup points',
        questEventId: first,
      });
    } finally {
      read.mockRestore();
    }
    expect((await resources.getType(tenantId, type.id)).questEventId).toBe(first);
    expect(await bind(type.id, first)).toBe(true);
    expect(await bind(type.id, second)).toBe(false);
    expect((await resources.getType(tenantId, type.id)).questEventId).toBe(first);
  });
});
