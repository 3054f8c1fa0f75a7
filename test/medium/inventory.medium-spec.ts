import { InventoryModule } from '../../src/inventory/inventory.module.js';
import { InventoryService } from '../../src/inventory/inventory.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, givenUser, numbers, outcomeOf, uniqueName } from './fixtures.js';

const PAGE = { page: 1, limit: 20, offset: 0 };
const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';

/**
 * InventoryService on the real database: slot and item management (lookups by id or key, every
 * field of an update, supply rules), grants and the avatar allocation, read back from the tables.
 */
describe('InventoryService (medium: InventoryModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let inventory: InventoryService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [InventoryModule, TenantsModule] });
    inventory = t.get(InventoryService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  const givenSlot = async (communityId: string) => inventory.createSlot(tenantId, { communityId, key: uniqueName('k'), name: 'Head' });

  it('slots: a uuid-like key and a taken key are refused; an update changes each given field; unknown or foreign ids are slot_not_found', async () => {
    const community = await givenCommunity(t, tenantId);
    expect(await domainErrorOf(inventory.createSlot(tenantId, { communityId: community, key: UNKNOWN, name: 'X' }))).toBe(
      'invalid_slot_key',
    );
    const slot = await givenSlot(community);
    expect(await domainErrorOf(inventory.createSlot(tenantId, { communityId: community, key: slot.key, name: 'Again' }))).toBe(
      'slot_key_taken',
    );
    const changed = await inventory.updateSlot(tenantId, slot.id.toUpperCase(), { name: 'Hat', description: 'On top', position: 3 });
    expect(changed).toMatchObject({ id: slot.id, key: slot.key, name: 'Hat', description: 'On top', position: 3 });
    expect((await inventory.inventory(tenantId, community, await givenUser(t, tenantId))).slots).toEqual([changed]);

    expect(await domainErrorOf(inventory.updateSlot(tenantId, 'head', { name: 'x' }))).toBe('slot_not_found');
    expect(await domainErrorOf(inventory.updateSlot(tenantId, UNKNOWN, { name: 'x' }))).toBe('slot_not_found');
    expect(await domainErrorOf(inventory.updateSlot(await givenTenant(t), slot.id, { name: 'x' }))).toBe('slot_not_found');
    // A slot is resolved by key (any case) or id; a reference longer than any key is not looked up.
    expect((await inventory.resolveSlot(tenantId, community, ` ${slot.key.toUpperCase()} `)).id).toBe(slot.id);
    expect((await inventory.resolveSlot(tenantId, community, slot.id)).key).toBe(slot.key);
    expect(await domainErrorOf(inventory.resolveSlot(tenantId, community, 'k'.repeat(65)))).toBe('slot_not_found');
  });

  it('items: an update changes name and attributes, and lowers the supply only down to the units granted', async () => {
    const community = await givenCommunity(t, tenantId);
    const slot = await givenSlot(community);
    const item = await inventory.createItem(tenantId, { communityId: community, slotId: slot.key, name: 'Crown', supply: 5 });
    const user = await givenUser(t, tenantId);
    await inventory.adminGrant(tenantId, { userId: user, itemId: item.id, quantity: 3, reason: 'medium-test' });

    const changed = await inventory.updateItem(tenantId, item.id, {
      name: 'Golden crown',
      attributes: [{ traitType: 'shine', value: 'bright' }],
      supply: 3,
    });
    expect(changed).toMatchObject({ name: 'Golden crown', attributes: [{ traitType: 'shine', value: 'bright' }], supply: 3, granted: 3 });
    expect(await domainErrorOf(inventory.updateItem(tenantId, item.id, { supply: 2, name: 'Cheap crown' }))).toBe('supply_below_granted');
    // The refused update changed nothing, the name included (one transaction).
    expect((await inventory.item(tenantId, community, item.id)).name).toBe('Golden crown');
    expect((await inventory.updateItem(tenantId, item.id, { supply: null })).supply).toBeNull();
    expect(await domainErrorOf(inventory.updateItem(tenantId, 'crown', { name: 'x' }))).toBe('item_not_found');
    expect(await domainErrorOf(inventory.updateItem(tenantId, UNKNOWN, { name: 'x' }))).toBe('item_not_found');
  });

  it('grants: a quantity that is not a positive integer is a programming error; a non-uuid item is item_not_found; supply is never exceeded', async () => {
    const community = await givenCommunity(t, tenantId);
    const slot = await givenSlot(community);
    const item = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: 'Ring', supply: 2 });
    const user = await givenUser(t, tenantId);
    const grant = (itemId: string, quantity: number) =>
      inventory.grantItem(t.dataSource.manager, { tenantId, userId: user, itemId, quantity, reason: 'medium-test' });
    for (const quantity of [0, -1, 1.5]) await expect(grant(item.id, quantity)).rejects.toThrow(/positive integer/);
    expect(await domainErrorOf(grant('ring', 1))).toBe('item_not_found');
    expect((await grant(item.id, 2)).ownedQuantity).toBe(2);
    expect(await domainErrorOf(grant(item.id, 1))).toBe('supply_exhausted');
    // Units granted are the sum of the item's supply shards (`inventory_items.granted` is a summary folded after commits).
    const counted =
      'SELECT (SELECT SUM(granted) FROM inventory_item_shards WHERE item_id = $1)::int AS granted, supply FROM inventory_items WHERE id = $1';
    expect(await numbers(t.dataSource, counted, [item.id])).toEqual({
      granted: 2,
      supply: 2,
    });
  });

  it('grants that find every shard taken drop what they passed over and wait in one order: concurrent grants never deadlock, and only the supply runs out', async () => {
    const community = await givenCommunity(t, tenantId);
    const slot = await givenSlot(community);
    const users = await Promise.all([1, 2].map(() => givenUser(t, tenantId)));
    // Three units on three of the item's shards, eight grants at once: most of them find no free
    // shard and wait. A take that skipped held shards kept locks on shards it passed over (sold out
    // meanwhile) and then waited for others: two such grants deadlocked, once in a few hundred
    // rounds (a CI run of 12 rounds, a local run of 150). The rounds make that show.
    for (let round = 0; round < 150; round++) {
      const item = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: uniqueName('Crown'), supply: 3 });
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          outcomeOf(inventory.adminGrant(tenantId, { userId: users[i % 2], itemId: item.id, reason: 'medium-test' }), 'granted'),
        ),
      );
      expect(outcomes.sort()).toEqual([...Array(3).fill('granted'), ...Array(5).fill('supply_exhausted')]);
    }
  });

  it('allocation: an item the user owns goes into its slot (version 1); clearing every slot makes version 2; clearing again changes nothing', async () => {
    const community = await givenCommunity(t, tenantId);
    const slot = await givenSlot(community);
    const item = await inventory.createItem(tenantId, { communityId: community, slotId: slot.id, name: 'Cape' });
    const user = await givenUser(t, tenantId);
    await inventory.adminGrant(tenantId, { userId: user, itemId: item.id, reason: 'medium-test' });

    await inventory.allocate(tenantId, community, user, { slots: [{ slotId: slot.key, itemId: item.id }] });
    expect((await inventory.inventory(tenantId, community, user)).user).toMatchObject({ allocatedSlots: 1, avatarVersion: 1 });
    const owned = await inventory.userItems(tenantId, community, user, { slotRef: slot.key, onlyOwned: true }, PAGE);
    expect(owned).toMatchObject({ total: 1, items: [{ id: item.id, ownedQuantity: 1, allocated: true }] });

    await inventory.allocate(tenantId, community, user, { slots: [{ slotId: slot.id, itemId: null }] });
    await inventory.allocate(tenantId, community, user, { slots: [{ slotId: slot.id, itemId: '' }] });
    expect((await inventory.inventory(tenantId, community, user)).user).toMatchObject({ allocatedSlots: 0, avatarVersion: 2 });
    expect((await inventory.userSlots(tenantId, community, user)).slots).toEqual([expect.objectContaining({ id: slot.id, item: null })]);
  });
});
