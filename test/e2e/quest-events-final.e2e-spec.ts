import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { grant, type TestCommunity } from '../helpers/communities.js';
import type { TestUser } from '../helpers/factories.js';
import { admin, eventApi, givenCommunity, givenEvent, givenEventQuest, givenMembers, HOUR, type TestEvent } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

/**
 * What an outside probe found around an event's end: credits after the end deciding the winner,
 * a completed event's board still live, rewards that can never be claimed, and a started event's
 * start moved back into the future.
 */
describe('quest events: the final standings, unclaimable rewards, a started event’s start', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false' }, { resetClock: true });
  let tenant: TenantCredentials;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
  });

  /** An active event where `scores[i]` is credited to `users[i]` by event quests (0: registered, no quest). */
  async function givenScoredEvent(scores: number[], fields: Record<string, unknown> = {}) {
    const event = await givenEvent(t, tenant, community, fields);
    const users = await givenMembers(t, tenant, community, scores.length);
    t.clock.advance(1 * HOUR + 1);
    for (const u of users) expect((await eventApi(t, event)(u, 'post', '/participant/register')).status).toBe(201);
    t.clock.advance(1 * HOUR);
    for (const [i, score] of scores.entries()) {
      if (score === 0) continue;
      const q = await givenEventQuest(t, tenant, event, score);
      expect((await admin(t, tenant).post(`/v1/admin/quests/${q.id}/completions`, { userId: users[i].userId })).body).toMatchObject({
        created: true,
      });
    }
    return { event, users };
  }

  const allocations = async (event: TestEvent) =>
    (await admin(t, tenant).get(`/v1/admin/quest-events/${event.id}/allocations?limit=100`)).body.items.map(
      (a: { userId: string; rank: number; score: number; reward: { name: string } }) => [a.reward.name, a.userId, a.rank, a.score],
    );

  it('counts only what was earned before the end: a grant after endsAt, before the worker ran, decides nothing', async () => {
    const { event, users } = await givenScoredEvent([40, 30, 20]);
    const [b, c, d] = users;
    const api = admin(t, tenant);
    for (const [name, rank] of [
      ['Winner', 1],
      ['Second', 2],
    ] as const)
      expect(
        (await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name, kind: 'manual', rankFrom: rank, rankTo: rank })).status,
      ).toBe(201);

    // 0.2 s after the end: the event shows ended, the worker has not run yet; the grant is accepted.
    t.clock.set(new Date(event.endsAt.getTime() + 200));
    expect((await eventApi(t, event)(b, 'get')).body.status).toBe('ended');
    expect((await grant(t, tenant, d.userId, event.scoreTypeId, 50)).status).toBe(201);

    expect(await t.app.get(EventCompletionService).runOnce()).toEqual([event.id]);
    expect(await allocations(event)).toEqual([
      ['Winner', b.userId, 1, 40],
      ['Second', c.userId, 2, 30],
    ]);
    const scores = (await api.get(`/v1/admin/quest-events/${event.id}/participants?limit=100`)).body.items.map(
      (p: { userId: string; score: number }) => [p.userId, p.score],
    );
    expect(scores).toEqual(
      expect.arrayContaining([
        [b.userId, 40],
        [c.userId, 30],
        [d.userId, 20],
      ]),
    );
  });

  it('an early close counts what was stamped up to the close, not a credit stamped after it', async () => {
    const { event, users } = await givenScoredEvent([40, 30]);
    const [b, c] = users;
    await admin(t, tenant).post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Winner', kind: 'manual', rankFrom: 1, rankTo: 1 });
    // A credit stamped 5 s after the instant the operator closes at (an instance whose clock runs ahead).
    const closeAt = t.clock.now();
    t.clock.freeze(new Date(closeAt.getTime() + 5000));
    expect((await grant(t, tenant, c.userId, event.scoreTypeId, 50)).status).toBe(201);
    t.clock.set(closeAt);
    const closed = await admin(t, tenant).post(`/v1/admin/quest-events/${event.id}/close`, {});
    expect(closed.body).toMatchObject({ completedNow: true });
    expect(await allocations(event)).toEqual([['Winner', b.userId, 1, 40]]);
  });

  it("a completed event's leaderboard and ranks are the final standings its tickets were allocated by, not the live resource", async () => {
    // b 40; c and f tie at 30; d 20; g registered without a score; e never registers.
    const { event, users } = await givenScoredEvent([40, 30, 30, 20, 0]);
    const [b, c, f, d, g] = users;
    const [e] = await givenMembers(t, tenant, community, 1);
    const api = admin(t, tenant);
    const call = eventApi(t, event);
    await api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Top three', kind: 'manual', rankFrom: 1, rankTo: 3 });
    type Line = { rank: number; userId: string; amount: number; handle: string; displayName: string | null };
    const board = async (u: TestUser, qs = '?limit=100') => {
      const res = await call(u, 'get', `/leaderboard${qs}`);
      expect(res.status).toBe(200);
      return res.body as { items: Line[]; total: number; page: number; limit: number; hasNextPage: boolean };
    };
    const lines = (items: Line[]) => items.map((i) => [i.userId, i.rank, i.amount]);

    // Live: a management grant to a player who never registered shows (a known limit of live boards).
    expect((await grant(t, tenant, e.userId, event.scoreTypeId, 100)).status).toBe(201);
    expect(lines((await board(b)).items)[0]).toEqual([e.userId, 1, 100]);
    expect((await call(c, 'get', '/participant/rank')).body).toMatchObject({ rank: 3, score: 30, totalRanked: 5 });

    // The end: the worker completes it; then c earns more, after the end.
    t.clock.set(new Date(event.endsAt.getTime() + 1000));
    expect(await t.app.get(EventCompletionService).runOnce()).toEqual([event.id]);
    expect((await grant(t, tenant, c.userId, event.scoreTypeId, 100)).status).toBe(201);

    const [first, second] = [c, f].sort((x, y) => (x.userId < y.userId ? -1 : 1));
    const final = [
      [b.userId, 1, 40],
      [first.userId, 2, 30],
      [second.userId, 2, 30],
      [d.userId, 4, 20],
    ];
    const page = await board(b);
    expect(lines(page.items)).toEqual(final);
    expect(page).toMatchObject({ total: 4, page: 1, hasNextPage: false });
    expect(Object.keys(page.items[0]).sort()).toEqual(['amount', 'displayName', 'handle', 'rank', 'userId']);
    // The ranks of a later page are the standings' own (the tie continues across the page break).
    const second2 = await board(b, '?limit=2&page=2');
    expect(lines(second2.items)).toEqual(final.slice(2));
    expect(second2).toMatchObject({ total: 4, hasNextPage: false });
    // By slug too, and the same standings the allocations were made from.
    expect(lines((await t.http().get(`/v1/quest-event/${event.slug}/leaderboard`).set('Authorization', b.auth)).body.items)).toEqual(final);
    const allocated = (await allocations(event)).map(([, userId, rank, score]: [string, string, number, number]) => [userId, rank, score]);
    expect(allocated.sort()).toEqual(final.slice(0, 3).sort());

    // Each participant's rank is their place in the standings, with its neighbours.
    const rank = async (u: TestUser) => (await call(u, 'get', '/participant/rank')).body;
    const cRank = await rank(c);
    expect(cRank).toMatchObject({ status: 1, rank: 2, score: 30, totalRanked: 4 });
    const around = (x: { above: Line[]; below: Line[] }) => [lines(x.above), lines(x.below)];
    const cIsFirst = first === c;
    expect(around(cRank)).toEqual(cIsFirst ? [[final[0]], final.slice(2)] : [final.slice(0, 2), [final[3]]]);
    expect(await rank(b)).toMatchObject({ rank: 1, score: 40, totalRanked: 4, above: [] });
    expect(around(await rank(d))).toEqual([final.slice(1, 3), []]);
    expect(await rank(g)).toMatchObject({ status: 1, rank: null, score: 0, totalRanked: 4, above: [], below: [] });
    expect((await call(e, 'get', '/participant/rank')).body).toMatchObject({ error: 'participant_not_found' });

    // Frozen, whatever moves later and however long it is kept; a rename still shows.
    t.clock.advance(60_000);
    expect(lines((await board(b)).items)).toEqual(final);
    expect((await t.http().post('/v1/user/profile').set('Authorization', b.auth).send({ displayName: 'Champion' })).status).toBeLessThan(
      300,
    );
    expect((await board(b)).items[0]).toMatchObject({ userId: b.userId, displayName: 'Champion', rank: 1 });
    expect((await rank(first)).above[0]).toMatchObject({ userId: b.userId, displayName: 'Champion' });
  });

  it('refuses a reward whose ticketCost is above its tickets: no allocation could ever claim it', async () => {
    const event = await givenEvent(t, tenant, community);
    const api = admin(t, tenant);
    const add = (body: object) => api.post(`/v1/admin/quest-events/${event.id}/rewards`, { name: 'Prize', kind: 'manual', ...body });
    for (const body of [{ tickets: 1, ticketCost: 2 }, { ticketCost: 2 }, { tickets: 3, ticketCost: 4 }]) {
      const res = await add(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error', error: 'ticket_cost_above_tickets' });
      expect(res.body.detail).toContain('ticketCost');
    }
    expect((await add({ tickets: 2, ticketCost: 2 })).status).toBe(201);
    expect((await add({ tickets: 3 })).status).toBe(201);
    const rewards = (await api.get(`/v1/admin/quest-events/${event.id}/rewards`)).body;
    expect(rewards.map((r: { tickets: number; ticketCost: number }) => [r.tickets, r.ticketCost]).sort()).toEqual([
      [2, 2],
      [3, 1],
    ]);
  });

  it("refuses moving a started event's start later (into the future, or later in the past); the same or an earlier start is accepted", async () => {
    const { event, users } = await givenScoredEvent([10]);
    const [b] = users;
    const api = admin(t, tenant);
    const call = eventApi(t, event);
    t.clock.advance(10 * 60_000);
    const now = t.clock.now().getTime();
    for (const startsAt of [new Date(now + 15_000), new Date(event.startsAt.getTime() + 60_000)]) {
      const res = await api.patch(`/v1/admin/quest-events/${event.id}`, { startsAt });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error', error: 'start_already_passed' });
    }
    expect((await call(b, 'get')).body).toMatchObject({ status: 'active', startsAt: event.startsAt.toISOString() });
    expect((await call(b, 'put', '/participant/unregister')).body.error).toBe('event_already_started');

    expect((await api.patch(`/v1/admin/quest-events/${event.id}`, { startsAt: event.startsAt, name: 'Same start' })).status).toBe(200);
    const earlier = new Date(event.startsAt.getTime() - 30 * 60_000);
    const moved = await api.patch(`/v1/admin/quest-events/${event.id}`, { startsAt: earlier });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'active', startsAt: earlier.toISOString() });

    // Before the start, the start still moves freely.
    const upcoming = await givenEvent(t, tenant, community);
    const later = new Date(upcoming.startsAt.getTime() + HOUR);
    expect((await api.patch(`/v1/admin/quest-events/${upcoming.id}`, { startsAt: later })).body).toMatchObject({
      startsAt: later.toISOString(),
    });
  });
});
