import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { expectError } from '../helpers/errors.js';
import { admin, eventApi, givenCommunity, givenMember, HOUR } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';
import { uniqueName } from '../factories/unique-name.js';

let n = 0;

/**
 * A scoped resource type serves one quest event: the event that takes it as its score binds it,
 * and only that event's quests can reward it. Before, two events could share one score type and a
 * quest outside the event could credit it: one event's leaderboard showed another's points, a
 * cancel in one event revoked the score of the other, and a player never registered ranked first.
 */
describe('quest event score types: one scoped type, one event', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', DB_POOL_SIZE: '10' });
  let tenant: TenantCredentials;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
  });

  /** Registration opens in 1 h and closes in 3 h, the event runs from 2 h to 10 h. */
  const eventBody = (fields: Record<string, unknown> = {}) => {
    const now = t.clock.now().getTime();
    const at = (h: number) => new Date(now + h * HOUR).toISOString();
    return {
      communityId: community.id,
      slug: uniqueName('sc'),
      name: 'Score cup',
      registrationStartsAt: at(1),
      registrationEndsAt: at(3),
      startsAt: at(2),
      endsAt: at(10),
      ...fields,
    };
  };
  const scoped = (fields: Record<string, unknown> = {}) =>
    givenResourceType(t, tenant, community.id, { kind: 'scoped', name: 'Points', ...fields });
  /** The event a type is bound to, as the management API shows it. */
  const boundTo = async (typeId: string): Promise<string | null> => {
    const res = await admin(t, tenant).get(`/v1/admin/resources/types?communityId=${community.id}&limit=100`);
    expect(res.status).toBe(200);
    const type = (res.body.items as { id: string; questEventId: string | null }[]).find((x) => x.id === typeId);
    if (!type) throw new Error(`type ${typeId} not listed`);
    return type.questEventId;
  };
  const quest = (fields: Record<string, unknown>) =>
    admin(t, tenant).post('/v1/admin/quests', { communityId: community.id, name: `Quest ${++n}`, type: 'match', ...fields });
  const resourceReward = (resourceTypeId: string, amount: number) => [{ type: 'resource', resourceTypeId, amount }];

  it('the first event to take a scoped type binds it; a second event is refused it (create and update), so a cancel there cannot revoke the first event’s score', async () => {
    const api = admin(t, tenant);
    const shared = await scoped();
    expect(await boundTo(shared.id)).toBeNull();

    const e2 = await api.post('/v1/admin/quest-events', eventBody({ scoreResourceTypeId: shared.id }));
    expect(e2.status).toBe(201);
    expect(await boundTo(shared.id)).toBe(e2.body.id);

    // Another event cannot take it, neither at creation (nothing is created) nor by an update.
    const refusedBody = eventBody({ scoreResourceTypeId: shared.id });
    expectError(await api.post('/v1/admin/quest-events', refusedBody), 400, 10002, 'invalid_quest_event');
    expect((await api.get(`/v1/admin/quest-events/${refusedBody.slug}`)).status).toBe(404);
    const e3 = await api.post('/v1/admin/quest-events', eventBody());
    expect(e3.status).toBe(201);
    expectError(
      await api.patch(`/v1/admin/quest-events/${e3.body.id}`, { scoreResourceTypeId: shared.id }),
      400,
      10002,
      'invalid_quest_event',
    );
    expect((await api.get(`/v1/admin/quest-events/${e3.body.id}`)).body.scoreResourceTypeId).toBeNull();
    expect(await boundTo(shared.id)).toBe(e2.body.id);
    // Setting it again on its own event is fine; E3 takes a type of its own.
    expect((await api.patch(`/v1/admin/quest-events/${e2.body.id}`, { scoreResourceTypeId: shared.id })).status).toBe(200);
    const own = await scoped();
    expect((await api.patch(`/v1/admin/quest-events/${e3.body.id}`, { scoreResourceTypeId: own.id })).body.scoreResourceTypeId).toBe(
      own.id,
    );
    expect(await boundTo(own.id)).toBe(e3.body.id);

    // A registers in both, scores 10 in E2, then cancels E3: E2's leaderboard and rank keep A.
    await api.post(`/v1/admin/quest-events/${e2.body.id}/rewards`, { name: 'Medal', kind: 'manual', tickets: 1 });
    const a = await givenMember(t, tenant, community);
    t.clock.advance(HOUR + 1);
    for (const e of [e2.body, e3.body]) expect((await eventApi(t, e)(a, 'post', '/participant/register')).status).toBe(201);
    t.clock.advance(HOUR);
    const win = await quest({ questEventId: e2.body.id, rewards: resourceReward(shared.id, 10) });
    expect(win.status).toBe(201);
    expect((await api.post(`/v1/admin/quests/${win.body.id}/completions`, { userId: a.userId })).body.created).toBe(true);
    expect((await eventApi(t, e3.body)(a, 'get', '/leaderboard')).body).toMatchObject({ items: [], total: 0 });
    expect((await eventApi(t, e3.body)(a, 'put', '/participant/cancel')).status).toBe(200);
    expect((await eventApi(t, e2.body)(a, 'get', '/leaderboard')).body).toMatchObject({
      total: 1,
      items: [expect.objectContaining({ rank: 1, amount: 10 })],
    });
    expect((await eventApi(t, e2.body)(a, 'get', '/participant/rank')).body).toMatchObject({ rank: 1, score: 10 });
    // At E2's completion A is allocated its reward.
    expect((await api.post(`/v1/admin/quest-events/${e2.body.id}/close`, {})).status).toBe(200);
    expect((await eventApi(t, e2.body)(a, 'get', '/reward/allocations')).body).toEqual([expect.objectContaining({ rank: 1, score: 10 })]);
  });

  it('a quest rewards a scoped type only if it belongs to the event the type is bound to (create and update); event rewards pay no scoped type', async () => {
    const api = admin(t, tenant);
    const xp = await givenResourceType(t, tenant, community.id);
    const score = await scoped();
    const e2 = await api.post('/v1/admin/quest-events', eventBody({ scoreResourceTypeId: score.id }));
    const otherScore = await scoped();
    const e3 = await api.post('/v1/admin/quest-events', eventBody({ scoreResourceTypeId: otherScore.id }));
    const unbound = await scoped();
    expect([e2.status, e3.status]).toEqual([201, 201]);

    // Refused: a quest of no event, a quest of another event, a type bound to no event.
    const outside = await quest({ rewards: resourceReward(score.id, 30) });
    expectError(outside, 400, 10002, 'scoped_reward_outside_event');
    expectError(
      await quest({ questEventId: e3.body.id, rewards: resourceReward(score.id, 30) }),
      400,
      10002,
      'scoped_reward_outside_event',
    );
    expectError(
      await quest({ questEventId: e2.body.id, rewards: resourceReward(unbound.id, 5) }),
      400,
      10002,
      'scoped_reward_outside_event',
    );
    const plain = await quest({ rewards: resourceReward(xp.id, 1) });
    expect(plain.status).toBe(201);
    expectError(
      await api.patch(`/v1/admin/quests/${plain.body.id}`, { rewards: resourceReward(score.id, 30) }),
      400,
      10002,
      'scoped_reward_outside_event',
    );
    const theirs = await quest({ questEventId: e3.body.id, rewards: resourceReward(otherScore.id, 5) });
    expect(theirs.status).toBe(201);
    expectError(
      await api.patch(`/v1/admin/quests/${theirs.body.id}`, {
        rewards: [...resourceReward(otherScore.id, 5), ...resourceReward(score.id, 5)],
      }),
      400,
      10002,
      'scoped_reward_outside_event',
    );
    expect((await api.get(`/v1/admin/quests/${theirs.body.id}`)).body.rewards).toEqual(resourceReward(otherScore.id, 5));

    // Its own event's quest still rewards it (with XP beside it), and only E2's participant ranks.
    const ours = await quest({ questEventId: e2.body.id, rewards: [...resourceReward(score.id, 7), ...resourceReward(xp.id, 1)] });
    expect(ours.status).toBe(201);
    const [player, outsider] = [await givenMember(t, tenant, community), await givenMember(t, tenant, community)];
    t.clock.advance(HOUR + 1);
    expect((await eventApi(t, e2.body)(player, 'post', '/participant/register')).status).toBe(201);
    t.clock.advance(HOUR);
    expect((await api.post(`/v1/admin/quests/${ours.body.id}/completions`, { userId: player.userId })).body.created).toBe(true);
    expect((await api.post(`/v1/admin/quests/${plain.body.id}/completions`, { userId: outsider.userId })).body.created).toBe(true);
    const board = (await eventApi(t, e2.body)(player, 'get', '/leaderboard')).body;
    expect(board).toMatchObject({ total: 1, items: [expect.objectContaining({ rank: 1, amount: 7 })] });
    expect((await eventApi(t, e2.body)(player, 'get', '/participant/rank')).body).toMatchObject({ rank: 1, score: 7 });

    // Event rewards are claimed after completion: no scoped type, its own event's or another's.
    for (const typeId of [score.id, otherScore.id, unbound.id]) {
      expectError(
        await api.post(`/v1/admin/quest-events/${e2.body.id}/rewards`, {
          name: 'Points',
          kind: 'resource',
          resourceTypeId: typeId,
          amount: 5,
        }),
        400,
        10002,
        'scoped_event_reward',
      );
    }
    expect(
      (await api.post(`/v1/admin/quest-events/${e2.body.id}/rewards`, { name: 'XP', kind: 'resource', resourceTypeId: xp.id, amount: 5 }))
        .status,
    ).toBe(201);
    expect((await api.get(`/v1/admin/quest-events/${e2.body.id}/rewards`)).body).toHaveLength(1);
  });

  it('events claiming one scoped type at the same moment: exactly one gets it, by create or by update', async () => {
    const api = admin(t, tenant);
    for (let round = 0; round < 4; round++) {
      const type = await scoped();
      const bodies = Array.from({ length: 4 }, () => eventBody({ scoreResourceTypeId: type.id }));
      const results = await Promise.all(bodies.map((b) => api.post('/v1/admin/quest-events', b)));
      const won = results.filter((r) => r.status === 201);
      expect(won).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 400, 10002, 'invalid_quest_event');
      expect(await boundTo(type.id)).toBe(won[0].body.id);
      const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM quest_events WHERE score_resource_type_id = $1', [
        type.id,
      ]);
      expect(count).toBe(1);
    }
    const events = await Promise.all(Array.from({ length: 4 }, () => api.post('/v1/admin/quest-events', eventBody())));
    const type = await scoped();
    const patched = await Promise.all(
      events.map((e) => api.patch(`/v1/admin/quest-events/${e.body.id}`, { scoreResourceTypeId: type.id })),
    );
    const won = patched.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(await boundTo(type.id)).toBe(won[0].body.id);
    for (const r of patched.filter((x) => x.status !== 200)) expectError(r, 400, 10002, 'invalid_quest_event');
  });

  it('a type two events already shared (data from before the binding) keeps serving both; the first event updated with it takes it', async () => {
    const api = admin(t, tenant);
    const legacy = await scoped();
    const [e4, e5] = await Promise.all([api.post('/v1/admin/quest-events', eventBody()), api.post('/v1/admin/quest-events', eventBody())]);
    // As the service used to leave it: both events scored by one type bound to neither.
    await t.dataSource.query('UPDATE quest_events SET score_resource_type_id = $1 WHERE id = ANY($2::uuid[])', [
      legacy.id,
      [e4.body.id, e5.body.id],
    ]);
    const a = await givenMember(t, tenant, community);
    t.clock.advance(HOUR + 1);
    for (const e of [e4.body, e5.body]) {
      expect((await eventApi(t, e)(a, 'post', '/participant/register')).status).toBe(201);
      expect((await eventApi(t, e)(a, 'get', '/leaderboard')).status).toBe(200);
    }
    // Updating other fields changes nothing about it; setting the type binds it to that event.
    expect((await api.patch(`/v1/admin/quest-events/${e5.body.id}`, { name: 'Renamed' })).status).toBe(200);
    expect(await boundTo(legacy.id)).toBeNull();
    expect((await api.patch(`/v1/admin/quest-events/${e4.body.id}`, { scoreResourceTypeId: legacy.id })).status).toBe(200);
    expect(await boundTo(legacy.id)).toBe(e4.body.id);
    expectError(
      await api.patch(`/v1/admin/quest-events/${e5.body.id}`, { scoreResourceTypeId: legacy.id }),
      400,
      10002,
      'invalid_quest_event',
    );
    expect((await api.get(`/v1/admin/quest-events/${e5.body.id}`)).body.scoreResourceTypeId).toBe(legacy.id);
  });
});
