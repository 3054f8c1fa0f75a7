import { PrizesModule } from '../../src/prizes/prizes.module.js';
import { PrizesService } from '../../src/prizes/prizes.service.js';
import { RequirementsService } from '../../src/requirements/requirements.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenTenant, givenUser, numbers, uniqueName } from './fixtures.js';

const PAGE = { page: 1, limit: 20, offset: 0 };

/** PrizesService on the real database: definitions, every field of an update, supply and awards. */
describe('PrizesService (medium: PrizesModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let prizes: PrizesService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [PrizesModule, TenantsModule] });
    prizes = t.get(PrizesService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  const givenRequirement = async () =>
    (
      await t.get(RequirementsService).create(tenantId, {
        key: uniqueName('req'),
        name: 'Shipping',
        kind: 'data',
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      })
    ).id;

  it('update changes description, image and requirements, and refuses a supply below the units awarded; the read-back matches', async () => {
    const requirement = await givenRequirement();
    const prize = await prizes.create(tenantId, { name: 'Trophy', kind: 'physical', totalSupply: 3 });
    const user = await givenUser(t, tenantId);
    await prizes.adminAward(tenantId, prize.id, { userId: user, quantity: 2, reason: 'medium-test', idempotencyKey: uniqueName('award') });

    const changed = await prizes.update(tenantId, prize.id.toUpperCase(), {
      description: 'Shiny',
      imageUrl: 'https://img.example/trophy.png',
      requirementIds: [requirement.toUpperCase()],
    });
    expect(changed).toMatchObject({ description: 'Shiny', imageUrl: 'https://img.example/trophy.png', requirementIds: [requirement] });
    expect(await prizes.get(tenantId, prize.id)).toEqual(changed);
    expect(await domainErrorOf(prizes.update(tenantId, prize.id, { totalSupply: 1 }))).toBe('prize_supply_below_awarded');
    expect(await domainErrorOf(prizes.update(tenantId, prize.id, { requirementIds: ['00000000-0000-4000-8000-00000000beef'] }))).toBe(
      'invalid_prize',
    );
    expect(await prizes.supply(tenantId, prize.id)).toEqual({ prizeId: prize.id, totalSupply: 3, awarded: 2, remainingSupply: 1 });
    // The requirement the prize asks for is listed for users, with nothing saved yet.
    expect(await prizes.requirementsForUser(tenantId, user)).toEqual([expect.objectContaining({ id: requirement, savedData: null })]);
  });

  it('an unlimited prize has no remaining supply figure; awards need a positive integer quantity and a user of the tenant', async () => {
    const prize = await prizes.create(tenantId, { name: 'Badge', kind: 'achievement' });
    expect(await prizes.supply(tenantId, prize.id)).toEqual({ prizeId: prize.id, totalSupply: null, awarded: 0, remainingSupply: null });
    const user = await givenUser(t, tenantId);
    const award = (quantity: number, userId = user) =>
      prizes.award(t.dataSource.manager, { tenantId, userId, prizeId: prize.id, quantity, source: 'admin', reason: 'medium-test' });
    for (const quantity of [0, 2.5]) await expect(award(quantity)).rejects.toThrow(/positive integer/);
    expect(await domainErrorOf(award(1, await givenUser(t, await givenTenant(t))))).toBe('user_not_found');
    expect(await domainErrorOf(award(1, 'someone'))).toBe('user_not_found');
    const first = await award(4);
    expect(first).toMatchObject({ ownedQuantity: 4, remainingSupply: null, replayed: false });
    expect(await prizes.listForUser(tenantId, user, true, PAGE)).toMatchObject({ total: 1, items: [{ id: prize.id, ownedQuantity: 4 }] });
    expect(await numbers(t.dataSource, 'SELECT awarded FROM prizes WHERE id = $1', [prize.id])).toEqual({ awarded: 4 });
  });
});
