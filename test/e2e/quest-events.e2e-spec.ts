import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { admin, eventApi, givenCommunity, givenEvent, givenEventQuest, givenMembers, HOUR } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

describe('quest events: list filters, completion exactly once, claims under contention', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', DB_POOL_SIZE: '10' });
  let tenant: TenantCredentials;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
  });

  it('lists events by participating, registrationOpen, filter[containerId|features|status], itemId and resourceId', async () => {
    const tenant2 = await t.givenTenant();
    const c1 = await givenCommunity(t, tenant2);
    const c2 = await givenCommunity(t, tenant2);
    const api = admin(t, tenant2);
    const xp = await givenResourceType(t, tenant2, c1.id, { slug: 'xp' });
    const open = await givenEvent(t, tenant2, c1, {
      registrationStartsAt: new Date(t.clock.now().getTime() - HOUR),
      features: ['score-based', 'solo'],
    });
    const later = await givenEvent(t, tenant2, c1, { features: ['solo'] });
    const other = await givenEvent(t, tenant2, c2, {
      registrationStartsAt: new Date(t.clock.now().getTime() - HOUR),
      startsAt: new Date(t.clock.now().getTime() - HOUR / 2),
    });
    const draft = await api.post('/v1/admin/quest-events', {
      communityId: c1.id,
      slug: 'draft-one',
      name: 'Draft',
      publish: false,
      registrationStartsAt: t.clock.now(),
      registrationEndsAt: new Date(t.clock.now().getTime() + HOUR),
      startsAt: t.clock.now(),
      endsAt: new Date(t.clock.now().getTime() + 2 * HOUR),
    });
    expect(draft.status).toBe(201);
    await api.post(`/v1/admin/quest-events/${later.id}/rewards`, { name: 'XP', kind: 'resource', resourceTypeId: xp.id, amount: 10 });
    const [u] = await givenMembers(t, tenant2, c1, 1);
    expect((await eventApi(t, open)(u, 'post', '/participant/register')).status).toBe(201);

    const list = async (qs: string) => {
      const res = await t.http().get(`/v1/quest-event${qs}`).set('Authorization', u.auth);
      expect(res.status).toBe(200);
      return res.body.items.map((e: { id: string }) => e.id).sort();
    };
    const sorted = (...ids: string[]) => ids.sort();
    expect(await list('')).toEqual(sorted(open.id, later.id, other.id));
    expect((await t.http().get(`/v1/quest-event/${draft.body.id}`).set('Authorization', u.auth)).status).toBe(404);
    expect(await list('?participating=true')).toEqual([open.id]);
    expect(await list('?participating=false')).toEqual(sorted(later.id, other.id));
    expect(await list('?registrationOpen=true')).toEqual(sorted(open.id, other.id));
    expect(await list('?registrationOpen=true&participating=false')).toEqual([other.id]);
    expect(await list(`?filter[containerId]=${c2.slug}`)).toEqual([other.id]);
    expect(await list('?filter[features]=solo')).toEqual(sorted(open.id, later.id));
    expect(await list('?filter[features]=solo,score-based')).toEqual([open.id]);
    expect(await list('?filter[status]=active')).toEqual([other.id]);
    expect(await list('?filter[status]=active&filter[status]=registration_open')).toEqual(sorted(other.id, open.id));
    expect(await list('?filter[status]=active,registration_open')).toEqual(sorted(other.id, open.id));
    // axios' default spelling of an array, inside the deepObject
    expect(await list('?filter[status][]=active&filter[status][]=registration_open')).toEqual(sorted(other.id, open.id));
    expect(await list('?filter%5Bstatus%5D%5B%5D=active')).toEqual([other.id]);
    expect(await list('?filter[status]=upcoming')).toEqual([later.id]);
    expect(await list(`?resourceId=${xp.id}`)).toEqual([later.id]);
    expect(await list(`?resourceId=${open.scoreTypeId}`)).toEqual([open.id]);
    expect(await list('?itemId=3b241101-e2bb-4255-8caf-4136c566a962')).toEqual([]);
    expect(await list('?limit=1&page=2')).toHaveLength(1);

    const bad = await t.http().get('/v1/quest-event?filter[status]=bogus').set('Authorization', u.auth);
    expect(bad.status).toBe(400);
    expect((await t.http().get('/v1/quest-event?filter[colour]=red').set('Authorization', u.auth)).status).toBe(400);
    expect((await t.http().get('/v1/quest-event?participating=maybe').set('Authorization', u.auth)).status).toBe(400);
    // by slug
    expect((await t.http().get(`/v1/quest-event/${open.slug}`).set('Authorization', u.auth)).body).toMatchObject({
      id: open.id,
      status: 'registration_open',
      participantStatus: 1,
    });
  });

  it("serves list pages from memory for up to READ_CACHE_MS; event writes through this process and the caller's own registrations show at once", async () => {
    const tenant3 = await t.givenTenant();
    const c = await givenCommunity(t, tenant3);
    const e = await givenEvent(t, tenant3, c, { registrationStartsAt: new Date(t.clock.now().getTime() - HOUR) });
    const [u] = await givenMembers(t, tenant3, c, 1);
    const list = async (qs = '') => {
      const res = await t.http().get(`/v1/quest-event${qs}`).set('Authorization', u.auth);
      expect(res.status).toBe(200);
      return res.body.items as { id: string; name: string; participantStatus: number | null }[];
    };
    expect((await list()).map((x) => [x.id, x.participantStatus])).toEqual([[e.id, null]]);
    expect(await list('?participating=true')).toEqual([]);
    // The caller's registration shows at once, in the status and in the participating filter.
    expect((await eventApi(t, e)(u, 'post', '/participant/register')).status).toBe(201);
    expect((await list()).map((x) => [x.id, x.participantStatus])).toEqual([[e.id, 1]]);
    expect((await list('?participating=true')).map((x) => x.id)).toEqual([e.id]);
    // A change this process does not see (another instance's): the cached page stays until it expires.
    await t.dataSource.query('UPDATE quest_events SET name = $1 WHERE id = $2', ['Renamed elsewhere', e.id]);
    expect((await list())[0].name).not.toBe('Renamed elsewhere');
    t.clock.advance(1001);
    expect((await list())[0].name).toBe('Renamed elsewhere');
    // An update through this process shows at once.
    expect((await admin(t, tenant3).patch(`/v1/admin/quest-events/${e.id}`, { name: 'Renamed here' })).status).toBe(200);
    expect((await list())[0].name).toBe('Renamed here');
  });

  it('running completion twice concurrently (two closes and the worker) allocates tickets once', async () => {
    const api = admin(t, tenant);
    const event = await givenEvent(t, tenant, community, { maxRank: 3 });
    await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Prize', kind: 'manual', tickets: 3 });
    const users = await givenMembers(t, tenant, community, 5);
    t.clock.advance(1 * HOUR + 1);
    for (const u of users) expect((await eventApi(t, event)(u, 'post', '/participant/register')).status).toBe(201);
    t.clock.advance(1 * HOUR);
    const quest = await givenEventQuest(t, tenant, event, 10);
    const big = await givenEventQuest(t, tenant, event, 100);
    for (const u of users) await api.post(`/v1/admin/quests/${quest.id}/completions`, { userId: u.userId });
    await api.post(`/v1/admin/quests/${big.id}/completions`, { userId: users[0].userId });
    t.clock.advance(8 * HOUR);

    const worker = t.app.get(EventCompletionService);
    const [c1, c2, w1, w2] = await Promise.all([
      api.post(`/v1/admin/quest-events/${event.id}/close`, {}),
      api.post(`/v1/admin/quest-events/${event.id}/close`, {}),
      worker.runOnce(),
      worker.runOnce(),
    ]);
    expect(c1.status).toBe(200);
    expect(c2.status).toBe(200);
    const winners =
      [c1.body.completedNow, c2.body.completedNow].filter(Boolean).length + [...w1, ...w2].filter((id) => id === event.id).length;
    expect(winners).toBe(1);
    // rank 1 (110) and four tied at rank 2 (10): all within maxRank 3
    const [{ n, tickets }] = await t.dataSource.query(
      'SELECT COUNT(*)::int AS n, SUM(tickets)::int AS tickets FROM quest_event_reward_allocations WHERE event_id = $1',
      [event.id],
    );
    expect(n).toBe(5);
    expect(tickets).toBe(15);
    const [{ k }] = await t.dataSource.query(
      `SELECT COUNT(*)::int AS k FROM notifications WHERE type = 'tickets_allocated' AND data->>'eventId' = $1`,
      [event.id],
    );
    expect(k).toBe(5);
    const again = await api.post(`/v1/admin/quest-events/${event.id}/close`, {});
    expect(again.body).toMatchObject({ completedNow: false, allocationsCreated: 0, event: { status: 'completed' } });
  });

  it('applies the completion rule: minimum score and rank bracket', async () => {
    const api = admin(t, tenant);
    const event = await givenEvent(t, tenant, community, { minScore: 20, maxRank: 2 });
    await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Winner', kind: 'manual', tickets: 5, rankFrom: 1, rankTo: 1 });
    await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Runner-up', kind: 'manual', tickets: 2, rankFrom: 2, rankTo: 2 });
    const users = await givenMembers(t, tenant, community, 4);
    t.clock.advance(1 * HOUR + 1);
    for (const u of users) await eventApi(t, event)(u, 'post', '/participant/register');
    t.clock.advance(1 * HOUR);
    const points = [50, 30, 30, 10];
    for (const [i, u] of users.entries()) {
      const q = await givenEventQuest(t, tenant, event, points[i]);
      await api.post(`/v1/admin/quests/${q.id}/completions`, { userId: u.userId });
    }
    // closing early is allowed once started
    const closed = await api.post(`/v1/admin/quest-events/${event.id}/close`, {});
    expect(closed.body).toMatchObject({ completedNow: true });
    const got = await Promise.all(
      users.map(async (u) =>
        (await eventApi(t, event)(u, 'get', '/reward/allocations')).body.map(
          (a: { reward: { name: string }; tickets: number }) => `${a.reward.name}:${a.tickets}`,
        ),
      ),
    );
    expect(got).toEqual([['Winner:5'], ['Runner-up:2'], ['Runner-up:2'], []]);
    t.clock.reset();
  });

  it('never exceeds a reward supply under concurrent claims', async () => {
    const api = admin(t, tenant);
    const event = await givenEvent(t, tenant, community);
    const reward = await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Limited', kind: 'manual', tickets: 1, supply: 3 });
    const users = await givenMembers(t, tenant, community, 8);
    t.clock.advance(1 * HOUR + 1);
    for (const u of users) await eventApi(t, event)(u, 'post', '/participant/register');
    t.clock.advance(1 * HOUR);
    const q = await givenEventQuest(t, tenant, event, 10);
    for (const u of users) await api.post(`/v1/admin/quests/${q.id}/completions`, { userId: u.userId });
    await api.post(`/v1/admin/quest-events/${event.id}/close`, {});
    const allocs = await Promise.all(
      users.map(async (u) => (await eventApi(t, event)(u, 'get', '/reward/allocations')).body[0].id as string),
    );
    const results = await Promise.all(users.map((u, i) => eventApi(t, event)(u, 'post', `/reward/allocations/claim/${allocs[i]}`, {})));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toMatchObject({ code: 10002, error: 'reward_sold_out' });
    const rewards = await api.get(`/v1/admin/quest-events/${event.id}/rewards`);
    expect(rewards.body.find((r: { id: string }) => r.id === reward.body.id)).toMatchObject({ claimed: 3, supply: 3 });
    const [{ spent }] = await t.dataSource.query(
      'SELECT SUM(tickets_spent)::int AS spent FROM quest_event_reward_allocations WHERE reward_id = $1',
      [reward.body.id],
    );
    expect(spent).toBe(3);
    t.clock.reset();
  });

  it('refuses inconsistent events and state changes through the management API', async () => {
    const api = admin(t, tenant);
    const now = t.clock.now().getTime();
    const at = (h: number) => new Date(now + h * HOUR);
    const base = {
      communityId: community.id,
      name: 'X',
      registrationStartsAt: at(1),
      registrationEndsAt: at(2),
      startsAt: at(2),
      endsAt: at(3),
    };
    expect((await api.post('/v1/admin/quest-events', { ...base, slug: 'bad-times', endsAt: at(1) })).body.error).toBe(
      'invalid_quest_event',
    );
    expect((await api.post('/v1/admin/quest-events', { ...base, slug: 'ok-one' })).status).toBe(201);
    expect((await api.post('/v1/admin/quest-events', { ...base, slug: 'ok-one' })).status).toBe(409);
    const xp = await givenResourceType(t, tenant, community.id);
    expect((await api.post('/v1/admin/quest-events', { ...base, slug: 'global-score', scoreResourceTypeId: xp.id })).body.error).toBe(
      'invalid_quest_event',
    );
    expect((await api.post('/v1/admin/quest-events/ok-one/close', {})).body.error).toBe('quest_event_state');
    expect((await api.post('/v1/admin/quest-events/ok-one/cancel', {})).body).toMatchObject({ status: 'cancelled' });
    expect((await api.patch('/v1/admin/quest-events/ok-one', { name: 'Y' })).body.error).toBe('quest_event_state');
    const otherTenant = await t.givenTenant();
    expect((await admin(t, otherTenant).get('/v1/admin/quest-events/ok-one')).status).toBe(404);
  });
  it('refuses a date before year 1 or after 9999 with 400 (PostgreSQL cannot store the earliest a client can send), changing nothing', async () => {
    const api = admin(t, tenant);
    const now = t.clock.now().getTime();
    const at = (h: number) => new Date(now + h * HOUR).toISOString();
    const base = {
      communityId: community.id,
      name: 'Far',
      registrationStartsAt: at(1),
      registrationEndsAt: at(2),
      startsAt: at(2),
      endsAt: at(3),
    };
    // The earliest and latest instants a JavaScript Date holds.
    const earliest = '-271821-04-20T00:00:00.000Z';
    const latest = '+275760-09-13T00:00:00.000Z';
    for (const [slug, fields, field] of [
      ['far-past', { registrationStartsAt: earliest }, 'registrationStartsAt'],
      ['far-future', { endsAt: latest }, 'endsAt'],
      ['year-zero', { registrationStartsAt: '0000-12-31T00:00:00.000Z' }, 'registrationStartsAt'],
      ['year-10000', { endsAt: '+010000-01-01T00:00:00.000Z' }, 'endsAt'],
    ] as const) {
      const res = await api.post('/v1/admin/quest-events', { ...base, slug, ...fields });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'generic_client_error', error: 'validation_failed', details: { fields: [field] } });
      expect(res.body.detail).toContain(`${field} must be a date from 0001-01-01 to 9999-12-31`);
      expect((await api.get(`/v1/admin/quest-events/${slug}`)).status).toBe(404);
    }
    // The bounds themselves are dates like any other.
    const bounds = await api.post('/v1/admin/quest-events', {
      ...base,
      slug: 'bounds',
      registrationStartsAt: '0001-01-01T00:00:00.000Z',
      endsAt: '9999-12-31T23:59:59.999Z',
      publish: false,
    });
    expect(bounds.status).toBe(201);
    expect(bounds.body).toMatchObject({ registrationStartsAt: '0001-01-01T00:00:00.000Z', endsAt: '9999-12-31T23:59:59.999Z' });
    for (const fields of [{ registrationStartsAt: earliest }, { endsAt: latest }]) {
      const res = await api.patch('/v1/admin/quest-events/bounds', fields);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    expect((await api.get('/v1/admin/quest-events/bounds')).body).toMatchObject({
      registrationStartsAt: '0001-01-01T00:00:00.000Z',
      endsAt: '9999-12-31T23:59:59.999Z',
    });
  });
});
