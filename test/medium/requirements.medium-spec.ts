import type { CreateRequirementDto } from '../../src/requirements/dto/requirement.dto.js';
import { InventoryModule } from '../../src/inventory/inventory.module.js';
import { InventoryService } from '../../src/inventory/inventory.service.js';
import { RequirementsModule } from '../../src/requirements/requirements.module.js';
import { RequirementsService } from '../../src/requirements/requirements.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesModule } from '../../src/resources/resources.module.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenResourceType, givenTenant, givenUser, uniqueName } from './fixtures.js';

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

/**
 * RequirementsService on the real database: what each kind of definition takes, the conditions a
 * user meets (items owned, amounts earned) and the data users save (encrypted when personal).
 */
describe('RequirementsService (medium: RequirementsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let requirements: RequirementsService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [RequirementsModule, InventoryModule, ResourcesModule, TenantsModule] });
    requirements = t.get(RequirementsService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('each kind takes only its own fields; unknown items and resource types are refused; a taken key is requirement_key_taken', async () => {
    const community = await givenCommunity(t, tenantId);
    const gems = await givenResourceType(t, tenantId, community);
    const invalid = async (dto: Omit<CreateRequirementDto, 'key' | 'name'>) =>
      domainErrorOf(requirements.create(tenantId, { key: uniqueName('r'), name: 'R', ...dto }));
    expect(await invalid({ kind: 'data', schema: SCHEMA, itemId: gems })).toBe('invalid_requirement');
    expect(await invalid({ kind: 'data', schema: { type: 'nonsense' } })).toBe('invalid_requirement');
    expect(await invalid({ kind: 'owns_item', itemId: gems, schema: SCHEMA })).toBe('invalid_requirement');
    expect(await invalid({ kind: 'owns_item', itemId: '00000000-0000-4000-8000-00000000beef' })).toBe('invalid_requirement');
    expect(await invalid({ kind: 'min_resource', resourceTypeId: '00000000-0000-4000-8000-00000000beef', minAmount: 1 })).toBe(
      'invalid_requirement',
    );
    expect(await invalid({ kind: 'min_resource', resourceTypeId: gems })).toBe('invalid_requirement');
    const key = uniqueName('r');
    await requirements.create(tenantId, { key, name: 'Gems', kind: 'min_resource', resourceTypeId: gems, minAmount: 10 });
    expect(await domainErrorOf(requirements.create(tenantId, { key, name: 'Again', kind: 'data', schema: SCHEMA }))).toBe(
      'requirement_key_taken',
    );
    expect(await domainErrorOf(requirements.get(tenantId, 'not-an-id'))).toBe('requirement_not_found');
  });

  it('conditions: owning the item and having earned the minimum are met only when true; the first unmet one is requirement_not_met', async () => {
    const community = await givenCommunity(t, tenantId);
    const gems = await givenResourceType(t, tenantId, community);
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId: community, key: uniqueName('k'), name: 'Head' });
    const hat = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: 'Hat' });
    const ownsHat = await requirements.create(tenantId, { key: uniqueName('r'), name: 'Hat', kind: 'owns_item', itemId: hat.id });
    const rich = await requirements.create(tenantId, {
      key: uniqueName('r'),
      name: 'Rich',
      kind: 'min_resource',
      resourceTypeId: gems,
      minAmount: 10,
    });
    const defs = await requirements.findMany(t.dataSource.manager, tenantId, [ownsHat.id, rich.id, 'junk']);
    expect(defs.map((d) => d.id)).toEqual([ownsHat.id, rich.id]);
    const user = await givenUser(t, tenantId);
    const unmet = async () => (await requirements.unmetConditions(t.dataSource.manager, tenantId, user, defs)).map((d) => d.key);
    expect(await unmet()).toEqual([ownsHat.key, rich.key]);
    expect(await domainErrorOf(requirements.assertConditions(t.dataSource.manager, tenantId, user, defs))).toBe('requirement_not_met');

    await inventory.adminGrant(tenantId, { userId: user, itemId: hat.id, reason: 'medium-test' });
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: user, resourceTypeId: gems, amount: 9, reason: 'medium-test' });
    expect(await unmet()).toEqual([rich.key]);
    const notRich = await requirements.assertConditions(t.dataSource.manager, tenantId, user, defs).catch((e: Error) => e.message);
    expect(notRich).toContain('earned at least 10');
    await t
      .get(LedgerService)
      .credit(t.dataSource.manager, { tenantId, userId: user, resourceTypeId: gems, amount: 1, reason: 'medium-test' });
    await requirements.assertConditions(t.dataSource.manager, tenantId, user, defs);
    expect(await unmet()).toEqual([]);
  });

  it('saved data: personal data is stored encrypted and read back decrypted; other data in plain; both replace the earlier save', async () => {
    const personal = await requirements.create(tenantId, { key: uniqueName('r'), name: 'Address', kind: 'data', schema: SCHEMA });
    const open = await requirements.create(tenantId, {
      key: uniqueName('r'),
      name: 'Nick',
      kind: 'data',
      schema: SCHEMA,
      personalData: false,
    });
    const user = await givenUser(t, tenantId);
    const m = t.dataSource.manager;
    const [p, o] = await requirements.findMany(m, tenantId, [personal.id, open.id]);
    await requirements.saveData(m, tenantId, user, p, { city: 'Paris' });
    await requirements.saveData(m, tenantId, user, p, { city: 'Lyon' });
    await requirements.saveData(m, tenantId, user, o, { city: 'Nice' });
    const saved = await requirements.savedData(m, tenantId, user, [personal.id, open.id]);
    expect(Object.fromEntries(saved)).toEqual({ [personal.id]: { city: 'Lyon' }, [open.id]: { city: 'Nice' } });
    const rows = await t.dataSource.query<{ requirement_id: string; data: unknown; encrypted: boolean }[]>(
      'SELECT requirement_id, data, data_encrypted IS NOT NULL AS encrypted FROM store_saved_requirement_data WHERE user_id = $1 ORDER BY encrypted',
      [user],
    );
    expect(rows).toEqual([
      { requirement_id: open.id, data: { city: 'Nice' }, encrypted: false },
      { requirement_id: personal.id, data: null, encrypted: true },
    ]);
    // Saved data satisfies a later purchase's requirement without sending it again.
    expect(requirements.resolveData([p], [], saved)).toEqual([{ requirement: p, data: { city: 'Lyon' }, shouldSave: false }]);
  });
});
