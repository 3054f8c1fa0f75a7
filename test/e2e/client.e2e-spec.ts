import type { AddressInfo } from 'node:net';
import { createCgsClient, type CgsClient, type components } from '../../clients/typescript/index.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { givenCommunity, givenEvent, givenEventQuest, HOUR, type TestEvent } from '../helpers/quests.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Participant = components['schemas']['ParticipantDto'];

/**
 * The generated TypeScript client (clients/typescript, openapi-fetch over openapi.json) against the
 * real app on a loopback port: a user's whole walk through a quest event, every call typed.
 * The operator's part (creating the event, recording quest completions, closing) uses the
 * management API through supertest.
 */
describe('the generated TypeScript client', () => {
  let t: TestApp;
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let event: TestEvent;
  let xpId: string;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
    xpId = (await givenResourceType(t, tenant, community.id, { slug: 'xp' })).id;
    event = await givenEvent(t, tenant, community, { features: ['score-based'] });
    const reward = await adminApi(t, tenant).post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Winner XP', kind: 'resource', resourceTypeId: xpId, amount: 250, rankFrom: 1, rankTo: 1 });
    expect(reward.status).toBe(201);
  });
  afterAll(() => t.close());

  it('registers, joins, takes part in an event, climbs its leaderboard and claims the reward', async () => {
    const api: CgsClient = createCgsClient({ baseUrl, tenantId: tenant.slug });

    // Register with a password; the typed result carries the tokens.
    const reg = await api.POST('/v1/user/register/password', { body: { username: 'client_walker', password: 'correct horse battery' } });
    expect(reg.response.status).toBe(201);
    const session = reg.data!;
    expect(session.sessionToken).toMatch(/^ey/);
    api.setSessionToken(session.sessionToken);

    // A typed error body: joining an unknown community.
    const missing = await api.POST('/v1/community/{communityId}/join', { params: { path: { communityId: 'no-such-community' }, query: { referrerHandle: '' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });

    const joined = await api.POST('/v1/community/{communityId}/join', { params: { path: { communityId: community.slug }, query: { referrerHandle: '' } } });
    expect(joined.response.status).toBe(201);
    const c = await api.GET('/v1/community/{communityId}', { params: { path: { communityId: community.slug } } });
    expect(c.data).toMatchObject({ id: community.id, memberCount: 1 });

    // Registration opens in an hour; a new session token from the refresh token, through the client.
    t.clock.advance(1 * HOUR);
    const refreshed = await api.POST('/v1/user/auth/refresh-session', { body: { refreshToken: session.refreshToken } });
    expect(refreshed.response.status).toBe(200);
    api.setSessionToken(refreshed.data!.sessionToken);

    const open = await api.GET('/v1/quest-event', { params: { query: { registrationOpen: true, filter: { containerId: community.slug } } } });
    expect(open.data!.items.map((e) => e.slug)).toEqual([event.slug]);
    expect(open.data!.items[0].status).toBe('registration_open');

    const registered = await api.POST('/v1/quest-event/{eventId}/participant/register', { params: { path: { eventId: event.slug } } });
    expect(registered.response.status).toBe(201);
    expect(registered.data).toMatchObject<Partial<Participant>>({ status: 1, statusName: 'REGISTERED', score: 0 });
    const mine = await api.GET('/v1/quest-event', { params: { query: { participating: true } } });
    expect(mine.data!.items[0]).toMatchObject({ id: event.id, participantStatus: 1 });

    // The event starts; the operator records two quest completions.
    t.clock.advance(1 * HOUR);
    api.setSessionToken((await api.POST('/v1/user/auth/refresh-session', { body: { refreshToken: session.refreshToken } })).data!.sessionToken);
    const [q1, q2] = [await givenEventQuest(t, tenant, event, 40), await givenEventQuest(t, tenant, event, 25)];
    const quests = await api.GET('/v1/quest-event/{id}/quests', { params: { path: { id: event.id } } });
    expect(quests.data!.map((q) => [q.id, q.completed])).toEqual([[q1.id, false], [q2.id, false]]);
    for (const q of [q1, q2]) {
      const done = await adminApi(t, tenant).post(`/v1/admin/quests/${q.id}/completions`, { userId: session.userId });
      expect(done.body.created).toBe(true);
    }

    const synced = await api.GET('/v1/quest-event/{eventId}/participant/sync', { params: { path: { eventId: event.id } } });
    expect(synced.data).toMatchObject({ status: 1, score: 65 });
    const me = await api.GET('/v1/quest-event/{eventId}/participant', { params: { path: { eventId: event.id } } });
    expect(me.data).toMatchObject({ userId: session.userId, score: 65 });
    const rank = await api.GET('/v1/quest-event/{eventId}/participant/rank', { params: { path: { eventId: event.id } } });
    expect(rank.data).toMatchObject({ rank: 1, score: 65, totalRanked: 1 });
    const board = await api.GET('/v1/quest-event/{id}/leaderboard', { params: { path: { id: event.id }, query: { page: 1, limit: 10 } } });
    expect(board.data).toMatchObject({ total: 1, page: 1, limit: 10, hasNextPage: false });
    expect(board.data!.items[0]).toMatchObject({ userId: session.userId, rank: 1, amount: 65 });
    const list = await api.GET('/v1/quest-event/{eventId}/participant/list', { params: { path: { eventId: event.id } } });
    expect(list.data!.total).toBe(1);

    // The operator closes the event: the winner is allocated a ticket and claims the XP.
    const closed = await adminApi(t, tenant).post(`/v1/admin/quest-events/${event.id}/close`, {});
    expect(closed.body).toMatchObject({ completedNow: true, allocationsCreated: 1 });
    const allocations = await api.GET('/v1/quest-event/{eventId}/reward/allocations', { params: { path: { eventId: event.id } } });
    expect(allocations.data).toHaveLength(1);
    const allocation = allocations.data![0];
    expect(allocation).toMatchObject({ tickets: 1, rank: 1, score: 65, reward: { name: 'Winner XP' } });
    const claim = await api.POST('/v1/quest-event/{eventId}/reward/allocations/claim/{rewardAllocationId}', {
      params: { path: { eventId: event.id, rewardAllocationId: allocation.id } },
      body: {},
    });
    expect(claim.response.status).toBe(200);
    expect(claim.data).toMatchObject({ status: 'processed', ticketsSpent: 1 });

    const xp = await api.GET('/v1/community/{id}/ranking/{slug}', { params: { path: { id: community.slug, slug: 'xp' } } });
    expect(xp.data).toMatchObject({ amount: 250, rank: 1 });
    const xpBoard = await api.GET('/v1/community/{id}/leaderboard/{slug}', { params: { path: { id: community.slug, slug: 'xp' } } });
    expect(xpBoard.data!.items.map((i) => [i.userId, i.amount])).toEqual([[session.userId, 250]]);
    const notifications = await api.GET('/v1/user/notifications', { params: { query: { containerId: community.id } } });
    expect(notifications.data!.items.map((n) => n.type)).toEqual(expect.arrayContaining(['event_registered', 'event_completed', 'tickets_allocated', 'claim_processed']));
  });
});
