import type { AddressInfo } from 'node:net';
import { createCgsClient, type CgsClient, type components } from '../../clients/typescript/index.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { givenCommunity, givenEvent, givenEventQuest, HOUR, type TestEvent } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

type Participant = components['schemas']['ParticipantDto'];

/**
 * The generated TypeScript client (clients/typescript, openapi-fetch over openapi.json) against the
 * real app on a loopback port: a user's whole walk through a quest event, every call typed.
 * The operator's part (creating the event, recording quest completions, closing) uses the
 * management API through supertest.
 */
describe('the generated TypeScript client', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let event: TestEvent;
  let xpId: string;
  let baseUrl: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
    xpId = (await givenResourceType(t, tenant, community.id, { slug: 'xp' })).id;
    event = await givenEvent(t, tenant, community, { features: ['score-based'] });
    const reward = await adminApi(t, tenant).post(`/v1/admin/quest-events/${event.id}/rewards`, {
      name: 'Winner XP',
      kind: 'resource',
      resourceTypeId: xpId,
      amount: 250,
      rankFrom: 1,
      rankTo: 1,
    });
    expect(reward.status).toBe(201);
  });

  it('registers, joins, takes part in an event, climbs its leaderboard and claims the reward', async () => {
    const api: CgsClient = createCgsClient({ baseUrl, tenantId: tenant.slug });

    // Register with a password; the typed result carries the tokens.
    const reg = await api.POST('/v1/user/register/password', { body: { username: 'client_walker', password: 'correct horse battery' } });
    expect(reg.response.status).toBe(201);
    const session = reg.data!;
    expect(session.sessionToken).toMatch(/^ey/);
    api.setSessionToken(session.sessionToken);

    // A typed error body: joining an unknown community.
    const missing = await api.POST('/v1/community/{communityId}/join', {
      params: { path: { communityId: 'no-such-community' }, query: { referrerHandle: '' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({
      code: 20001,
      message: 'community_not_found',
      error: 'community_not_found',
      detail: expect.any(String),
    });

    const joined = await api.POST('/v1/community/{communityId}/join', {
      params: { path: { communityId: community.slug }, query: { referrerHandle: '' } },
    });
    expect(joined.response.status).toBe(201);
    const c = await api.GET('/v1/community/{communityId}', { params: { path: { communityId: community.slug } } });
    expect(c.data).toMatchObject({ id: community.id, memberCount: 1 });

    // Registration opens in an hour; a new session token from the refresh token, through the client.
    t.clock.advance(1 * HOUR);
    const refreshed = await api.POST('/v1/user/auth/refresh-session', { body: { refreshToken: session.refreshToken } });
    expect(refreshed.response.status).toBe(200);
    api.setSessionToken(refreshed.data!.sessionToken);

    const open = await api.GET('/v1/quest-event', {
      params: { query: { registrationOpen: true, filter: { containerId: community.slug } } },
    });
    expect(open.data!.items.map((e) => e.slug)).toEqual([event.slug]);
    expect(open.data!.items[0].status).toBe('registration_open');

    const registered = await api.POST('/v1/quest-event/{eventId}/participant/register', { params: { path: { eventId: event.slug } } });
    expect(registered.response.status).toBe(201);
    expect(registered.data).toMatchObject<Partial<Participant>>({ status: 1, statusName: 'REGISTERED', score: 0 });
    const mine = await api.GET('/v1/quest-event', { params: { query: { participating: true } } });
    expect(mine.data!.items[0]).toMatchObject({ id: event.id, participantStatus: 1 });

    // The event starts; the operator records two quest completions.
    t.clock.advance(1 * HOUR);
    api.setSessionToken(
      (await api.POST('/v1/user/auth/refresh-session', { body: { refreshToken: session.refreshToken } })).data!.sessionToken,
    );
    const [q1, q2] = [await givenEventQuest(t, tenant, event, 40), await givenEventQuest(t, tenant, event, 25)];
    const quests = await api.GET('/v1/quest-event/{id}/quests', { params: { path: { id: event.id } } });
    expect(quests.data!.map((q) => [q.id, q.completed])).toEqual([
      [q1.id, false],
      [q2.id, false],
    ]);
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
    expect(notifications.data!.items.map((n) => n.type)).toEqual(
      expect.arrayContaining(['event_registered', 'event_completed', 'tickets_allocated', 'claim_processed']),
    );
  });

  it('sends array and deepObject query parameters as the service reads them (filter.status as an array, questTypes: [])', async () => {
    const api: CgsClient = createCgsClient({ baseUrl, tenantId: tenant.slug });
    const reg = await api.POST('/v1/user/register/password', { body: { username: 'client_lister', password: 'correct horse battery' } });
    api.setSessionToken(reg.data!.sessionToken);
    const byStatus = await api.GET('/v1/quest-event', {
      params: { query: { filter: { status: ['completed', 'active', 'registration_open', 'upcoming'], containerId: community.slug } } },
    });
    expect(byStatus.response.status).toBe(200);
    expect(byStatus.data!.items.map((e) => e.id)).toContain(event.id);
    const none = await api.GET('/v1/quest-event', { params: { query: { filter: { status: ['cancelled'] } } } });
    expect(none.data!.items).toEqual([]);
    const quests = await api.GET('/v1/community/{communityId}/quests', {
      params: { path: { communityId: community.slug }, query: { tags: [], questTypes: [], featured: '', query: '', page: 1, limit: 10 } },
    });
    expect(quests.response.status).toBe(200);
    expect(quests.data!.items).toHaveLength(quests.data!.total);
  });

  // A mobile client written from interface.md alone: it knows the error body `{code, message}` and
  // the three 401 identifiers, nothing of this service's extra fields.
  it('serves a client that knows only the interface: it refreshes on SESSION_TOKEN_EXPIRED and logs in again on REFRESH_TOKEN_EXPIRED', async () => {
    const headers = { 'Content-Type': 'application/json', 'X-Tenant-Id': tenant.id };
    const send = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
    };
    const login = async () =>
      (await send('POST', '/v1/user/auth/password/login', { username: 'interface_walker', password: 'correct horse battery' })).body as {
        sessionToken: string;
        refreshToken: string;
      };
    const log: string[] = [];
    let session = { sessionToken: '', refreshToken: '' };
    /** What the interface tells a client to do: refresh on SESSION_TOKEN_EXPIRED, log in again on REFRESH_TOKEN_EXPIRED. */
    const authed = async (path: string): Promise<number> => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const res = await send('GET', path, undefined, session.sessionToken);
        if (res.status !== 401) return res.status;
        if (res.body.message === 'SESSION_TOKEN_EXPIRED') {
          const refreshed = await send('POST', '/v1/user/auth/refresh-session', { refreshToken: session.refreshToken });
          if (refreshed.status === 200) {
            log.push('refreshed');
            session = { ...session, sessionToken: refreshed.body.sessionToken as string };
            continue;
          }
          if (refreshed.body.message !== 'REFRESH_TOKEN_EXPIRED') return refreshed.status;
        } else if (res.body.message !== 'GENERIC_UNAUTHORIZED') return res.status;
        log.push('logged in again');
        session = await login();
      }
      return 401;
    };

    t.clock.reset();
    expect(
      (await send('POST', '/v1/user/register/password', { username: 'interface_walker', password: 'correct horse battery' })).status,
    ).toBe(201);
    const bad = await send('POST', '/v1/user/auth/password/login', { username: 'interface_walker', password: 'wrong horse battery' });
    expect(bad).toMatchObject({ status: 401, body: { message: 'GENERIC_UNAUTHORIZED' } });
    const malformed = await send('POST', '/v1/user/auth/password/login', { username: 'interface_walker' });
    expect(malformed).toMatchObject({ status: 400, body: { code: 10002, message: 'generic_client_error' } });
    session = await login();
    expect(await authed('/v1/user/profile?fields=handle')).toBe(200);
    expect(log).toEqual([]);

    // A session that began 11 minutes ago: its session token has expired, its refresh token has not.
    t.clock.advance(-11 * 60 * 1000);
    session = await login();
    t.clock.reset();
    expect(await authed('/v1/user/profile?fields=handle')).toBe(200);
    expect(log).toEqual(['refreshed']);

    // A session that began 31 days ago: both have expired.
    t.clock.advance(-31 * 24 * HOUR);
    session = await login();
    t.clock.reset();
    expect(await authed('/v1/user/profile?fields=handle')).toBe(200);
    expect(log).toEqual(['refreshed', 'logged in again']);
  });
});
