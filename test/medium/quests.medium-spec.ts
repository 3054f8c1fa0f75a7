import { InventoryService } from '../../src/inventory/inventory.service.js';
import { QuestEventsService } from '../../src/quest-events/quest-events.service.js';
import { QuestsModule } from '../../src/quests/quests.module.js';
import { QuestsService } from '../../src/quests/quests.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, givenCommunity, givenTenant, givenUser, numbers, uniqueName } from './fixtures.js';

const HOUR = 3_600_000;
const TAGS = { userId: '', excludeTemplateTags: false, userAvailableQuests: false, includeRewards: '' as const };

/**
 * QuestsService on the real database: management (every field of an update, rewards of the
 * community only, event quests of the event's community), completion (once, the rewards credited
 * once) and the tag statistics.
 */
describe('QuestsService (medium: QuestsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let quests: QuestsService;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [QuestsModule, TenantsModule, UsersModule] });
    quests = t.get(QuestsService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  const gemsOf = async (communityId: string) =>
    (await t.get(ResourcesService).createType(tenantId, { communityId, slug: uniqueName('r'), name: 'Gems', kind: 'global' })).id;
  const itemOf = async (communityId: string) => {
    const inventory = t.get(InventoryService);
    const slot = await inventory.createSlot(tenantId, { communityId, key: uniqueName('k'), name: 'Head' });
    return (await inventory.createItem(tenantId, { communityId, slotId: slot.id, name: 'Hat' })).id;
  };

  it('update changes every given field, rewards included; the stored quest reads back the same by id', async () => {
    const community = await givenCommunity(t, tenantId);
    const gems = await gemsOf(community);
    const hat = await itemOf(community);
    const quest = await quests.create(tenantId, { communityId: community, name: 'Daily', type: 'daily', tags: [' PvP ', 'pvp', ''] });
    expect(quest).toMatchObject({ tags: ['pvp'], featured: false, template: false, rewards: [] });
    const changed = await quests.update(tenantId, quest.id.toUpperCase(), {
      name: 'Weekly',
      description: 'Once a week',
      type: 'WEEKLY',
      status: 'archived',
      tags: ['Solo'],
      rewards: [
        { type: 'resource', resourceTypeId: gems.toUpperCase(), amount: 5 },
        { type: 'item', itemId: hat, quantity: 1 },
      ],
      featured: true,
      template: true,
    });
    expect(changed).toMatchObject({
      name: 'Weekly',
      description: 'Once a week',
      type: 'weekly',
      status: 'archived',
      tags: ['solo'],
      rewards: [
        { type: 'resource', resourceTypeId: gems, amount: 5 },
        { type: 'item', itemId: hat, quantity: 1 },
      ],
      featured: true,
      template: true,
    });
    expect(await quests.getAdmin(tenantId, quest.id)).toEqual(changed);
    expect(await domainErrorOf(quests.getAdmin(tenantId, 'weekly'))).toBe('quest_not_found');
  });

  it('refuses rewards of another community and an event of another community; an archived quest cannot be completed', async () => {
    const [community, other] = [await givenCommunity(t, tenantId), await givenCommunity(t, tenantId)];
    const foreignHat = await itemOf(other);
    const base = { communityId: community, name: 'Q', type: 'daily' };
    expect(await domainErrorOf(quests.create(tenantId, { ...base, rewards: [{ type: 'item', itemId: foreignHat, quantity: 1 }] }))).toBe(
      'invalid_quest',
    );
    const now = Date.now();
    const event = await t.get(QuestEventsService).create(tenantId, {
      communityId: other,
      slug: uniqueName('ev'),
      name: 'Cup',
      registrationStartsAt: new Date(now - HOUR),
      registrationEndsAt: new Date(now + HOUR),
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 2 * HOUR),
    });
    expect(await domainErrorOf(quests.create(tenantId, { ...base, questEventId: event.slug }))).toBe('invalid_quest');
    const archived = await quests.create(tenantId, { ...base, status: 'archived' });
    expect(await domainErrorOf(quests.complete(tenantId, archived.id, await givenUser(t, tenantId)))).toBe('quest_not_completable');
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM quests WHERE community_id = $1', [community])).toEqual({ n: 1 });
  });

  it('completion: once per user with its rewards credited once; an unknown user and an event quest of a not-yet-active event are refused', async () => {
    const community = await givenCommunity(t, tenantId);
    const gems = await gemsOf(community);
    const quest = await quests.create(tenantId, {
      communityId: community,
      name: 'Daily',
      type: 'daily',
      rewards: [{ type: 'resource', resourceTypeId: gems, amount: 7 }],
    });
    const user = await givenUser(t, tenantId);
    expect(await quests.complete(tenantId, quest.id, user)).toMatchObject({ created: true, rewards: [{ amount: 7 }] });
    expect(await quests.complete(tenantId, quest.id, user)).toMatchObject({ created: false });
    expect(await t.get(LedgerService).getBalance(t.dataSource.manager, tenantId, user, gems)).toEqual({ balance: 7, earned: 7 });
    expect(await domainErrorOf(quests.complete(tenantId, quest.id, '00000000-0000-4000-8000-00000000beef'))).toBe('user_not_found');
    expect(await domainErrorOf(quests.complete(tenantId, 'daily', user))).toBe('quest_not_found');

    const now = Date.now();
    const event = await t.get(QuestEventsService).create(tenantId, {
      communityId: community,
      slug: uniqueName('ev'),
      name: 'Cup',
      registrationStartsAt: new Date(now - HOUR),
      registrationEndsAt: new Date(now + HOUR),
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 2 * HOUR),
    });
    const eventQuest = await quests.create(tenantId, {
      communityId: community,
      name: 'Event quest',
      type: 'event',
      questEventId: event.id,
    });
    expect(await domainErrorOf(quests.complete(tenantId, eventQuest.id, user))).toBe('quest_not_completable');
    expect((await quests.eventQuests(tenantId, user, event.slug)).map((q) => q.id)).toEqual([eventQuest.id]);
  });

  it("tags: with userAvailableQuests a tag whose quests the user completed all is left out; another user's statistics need that user", async () => {
    const community = await givenCommunity(t, tenantId);
    const a = await quests.create(tenantId, { communityId: community, name: 'A', type: 'daily', tags: ['done'] });
    await quests.create(tenantId, { communityId: community, name: 'B', type: 'daily', tags: ['open'] });
    const user = await givenUser(t, tenantId);
    await quests.complete(tenantId, a.id, user);
    expect(await quests.tags(tenantId, user, community, TAGS)).toEqual([
      { tag: 'done', questCount: 1, completedCount: 1, availableCount: 0 },
      { tag: 'open', questCount: 1, completedCount: 0, availableCount: 1 },
    ]);
    expect((await quests.tags(tenantId, user, community, { ...TAGS, userAvailableQuests: true })).map((x) => x.tag)).toEqual(['open']);
    // Asked for another user: that user's completions.
    const other = await givenUser(t, tenantId);
    expect((await quests.tags(tenantId, other, community, { ...TAGS, userId: user.toUpperCase() }))[0]).toMatchObject({
      tag: 'done',
      completedCount: 1,
    });
    expect(await domainErrorOf(quests.tags(tenantId, user, community, { ...TAGS, userId: '00000000-0000-4000-8000-00000000beef' }))).toBe(
      'user_not_found',
    );
  });
});
