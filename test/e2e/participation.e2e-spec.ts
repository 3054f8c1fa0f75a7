import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestCommunity } from '../helpers/communities.js';
import type { TestUser } from '../helpers/factories.js';
import { admin, eventApi, givenCommunity, givenEvent, givenMember, givenUser, HOUR, type TestEvent } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

describe('participation: transition table, capacity', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', DB_POOL_SIZE: '10' }, { resetClock: true });
  let tenant: TenantCredentials;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
  });

  type Action = 'register' | 'unregister' | 'cancel' | 'drop';
  const act = (event: TestEvent, u: TestUser, action: Action) => {
    if (action === 'drop') return admin(t, tenant).post(`/v1/admin/quest-events/${event.id}/participants/drop`, { userId: u.userId });
    const call = eventApi(t, event);
    return action === 'register' ? call(u, 'post', '/participant/register') : call(u, 'put', `/participant/${action}`);
  };

  /** A user in the given state of a fresh event whose registration is open (and which has not started). */
  async function inState(
    state: 'none' | 'REGISTERED' | 'UNREGISTERED' | 'DROPPED' | 'CANCELLED',
  ): Promise<{ event: TestEvent; u: TestUser }> {
    t.clock.reset();
    const event = await givenEvent(t, tenant, community);
    t.clock.advance(1 * HOUR + 60_000);
    const u = await givenMember(t, tenant, community);
    if (state === 'none') return { event, u };
    expect((await act(event, u, 'register')).status).toBe(201);
    const via: Record<string, Action | null> = { REGISTERED: null, UNREGISTERED: 'unregister', DROPPED: 'drop', CANCELLED: 'cancel' };
    if (via[state]) expect((await act(event, u, via[state])).status).toBe(200);
    return { event, u };
  }

  const forbidden: [Parameters<typeof inState>[0], Action][] = [
    ['none', 'unregister'],
    ['none', 'cancel'],
    ['none', 'drop'],
    ['REGISTERED', 'register'],
    ['UNREGISTERED', 'unregister'],
    ['UNREGISTERED', 'cancel'],
    ['UNREGISTERED', 'drop'],
    ['DROPPED', 'register'],
    ['DROPPED', 'unregister'],
    ['DROPPED', 'cancel'],
    ['DROPPED', 'drop'],
    ['CANCELLED', 'register'],
    ['CANCELLED', 'unregister'],
    ['CANCELLED', 'cancel'],
    ['CANCELLED', 'drop'],
  ];

  it.each(forbidden)('refuses %s → %s with 400 naming the current status', async (state, action) => {
    const { event, u } = await inState(state);
    const res = await act(event, u, action);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 10002, error: 'participant_transition' });
    expect(res.body.detail).toContain(state === 'none' ? 'NOT_REGISTERED' : state);
    const me = await eventApi(t, event)(u, 'get', '/participant');
    if (state === 'none') expect(me.status).toBe(404);
    else expect(me.body.statusName).toBe(state);
  });

  it.each([
    ['none', 'register', 'REGISTERED'],
    ['REGISTERED', 'unregister', 'UNREGISTERED'],
    ['REGISTERED', 'cancel', 'CANCELLED'],
    ['REGISTERED', 'drop', 'DROPPED'],
    ['UNREGISTERED', 'register', 'REGISTERED'],
  ] as const)('allows %s → %s (%s)', async (state, action, to) => {
    const { event, u } = await inState(state);
    const res = await act(event, u, action);
    expect([200, 201]).toContain(res.status);
    expect(res.body.statusName).toBe(to);
  });

  it('refuses registration to non-members (403) and outside the window (400)', async () => {
    const event = await givenEvent(t, tenant, community);
    const outsider = await givenUser(t, tenant);
    t.clock.advance(1 * HOUR + 1);
    expect((await act(event, outsider, 'register')).status).toBe(403);
    t.clock.advance(2 * HOUR);
    const late = await givenMember(t, tenant, community);
    expect((await act(event, late, 'register')).body).toMatchObject({ error: 'registration_closed' });
  });

  it('cancel stops scoring: quests of the event refuse a cancelled participant', async () => {
    const { event, u } = await inState('REGISTERED');
    t.clock.advance(1 * HOUR);
    const quest = await admin(t, tenant).post('/v1/admin/quests', {
      communityId: community.id,
      questEventId: event.id,
      name: 'Win',
      type: 'match',
      rewards: [{ type: 'resource', resourceTypeId: event.scoreTypeId, amount: 5 }],
    });
    expect((await admin(t, tenant).post(`/v1/admin/quests/${quest.body.id}/completions`, { userId: u.userId })).body.created).toBe(true);
    expect((await act(event, u, 'cancel')).status).toBe(200);
    const other = await admin(t, tenant).post('/v1/admin/quests', {
      communityId: community.id,
      questEventId: event.id,
      name: 'Win 2',
      type: 'match',
      rewards: [{ type: 'resource', resourceTypeId: event.scoreTypeId, amount: 5 }],
    });
    expect((await admin(t, tenant).post(`/v1/admin/quests/${other.body.id}/completions`, { userId: u.userId })).body.error).toBe(
      'quest_not_completable',
    );
    expect((await eventApi(t, event)(u, 'get', '/leaderboard')).body.total).toBe(0);
  });

  it('200 parallel registrations for capacity 50 leave exactly 50 REGISTERED', async () => {
    const event = await givenEvent(t, tenant, community, { capacity: 50 });
    const users: TestUser[] = [];
    for (let i = 0; i < 10; i++) users.push(...(await Promise.all(Array.from({ length: 20 }, () => givenMember(t, tenant, community)))));
    t.clock.advance(1 * HOUR + 1);
    const results = await Promise.all(users.map((u) => act(event, u, 'register')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect(r.body).toMatchObject({ code: 10002, error: 'event_full' });
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*)::int AS n FROM quest_event_participants WHERE event_id = $1 AND status = 1', [
      event.id,
    ]);
    expect(n).toBe(50);
    expect((await eventApi(t, event)(users[0], 'get')).body.registeredCount).toBe(50);
    expect((await eventApi(t, event)(users[0], 'get', '/participant/list?limit=100')).body.total).toBe(50);

    // a freed seat can be taken again, and only once
    const winner = results.findIndex((r) => r.status === 201);
    expect((await act(event, users[winner], 'unregister')).status).toBe(200);
    const losers = users.filter((_, i) => results[i].status !== 201).slice(0, 10);
    const second = await Promise.all(losers.map((u) => act(event, u, 'register')));
    expect(second.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('the same user registering twice at once registers once', async () => {
    const { event, u } = await inState('none');
    const results = await Promise.all(Array.from({ length: 5 }, () => act(event, u, 'register')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect((await eventApi(t, event)(u, 'get')).body.registeredCount).toBe(1);
  });
});
