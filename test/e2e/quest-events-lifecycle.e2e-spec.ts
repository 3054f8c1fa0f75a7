import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { admin, eventApi, givenCommunity, givenEvent, givenEventQuest, givenMembers, HOUR } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

describe('a quest event through its whole life', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let community: TestCommunity;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
  });

  it('registers, scores, cancels, drops, completes, allocates tickets and processes claims', async () => {
    const api = admin(t, tenant);
    const xp = await givenResourceType(t, tenant, community.id, { slug: 'xp' });
    const event = await givenEvent(t, tenant, community, { capacity: 10, minScore: 10, features: ['score-based'] });
    const call = eventApi(t, event);
    const [a, b, c, d, e] = await givenMembers(t, tenant, community, 5);
    const status = async () => (await call(a, 'get')).body.status;

    const top = await api.post(`/v1/admin/quest-events/${event.id}/rewards`, {
      name: 'Top prize',
      kind: 'resource',
      resourceTypeId: xp.id,
      amount: 500,
      tickets: 2,
      ticketCost: 1,
      supply: 2,
      rankFrom: 1,
      rankTo: 1,
      requiresWalletAddress: true,
    });
    expect(top.status).toBe(201);
    const badge = await api.post(`/v1/admin/quest-events/${event.id}/rewards`, {
      name: 'Badge',
      kind: 'manual',
      tickets: 1,
      requiresEmail: true,
      requiresAddress: true,
    });
    expect(badge.status).toBe(201);

    // created: upcoming, registration not open yet
    expect(await status()).toBe('upcoming');
    const early = await call(a, 'post', '/participant/register');
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ code: 10002, error: 'registration_closed' });

    // registration open: everyone registers; b unregisters and registers again; e unregisters
    t.clock.advance(1 * HOUR);
    expect(await status()).toBe('registration_open');
    for (const u of [a, b, c, d, e]) {
      const r = await call(u, 'post', '/participant/register');
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: 1, statusName: 'REGISTERED', score: 0 });
    }
    expect((await call(b, 'put', '/participant/unregister')).body).toMatchObject({ status: 2 });
    expect((await call(b, 'post', '/participant/register')).body).toMatchObject({ status: 1 });
    expect((await call(e, 'put', '/participant/unregister')).body).toMatchObject({ status: 2 });
    expect((await call(a, 'get')).body).toMatchObject({ registeredCount: 4, participantStatus: 1, registrationOpen: true });
    expect((await call(a, 'get', '/participant/list')).body).toMatchObject({ total: 4 });

    // start: active; unregistering is over
    t.clock.advance(1 * HOUR);
    expect(await status()).toBe('active');
    expect((await call(a, 'put', '/participant/unregister')).body).toMatchObject({ code: 10002, error: 'event_already_started' });

    // quests credit scores
    const q30 = await givenEventQuest(t, tenant, event, 30);
    const q20 = await givenEventQuest(t, tenant, event, 20);
    const q10 = await givenEventQuest(t, tenant, event, 10);
    const complete = (q: { id: string }, userId: string) => api.post(`/v1/admin/quests/${q.id}/completions`, { userId });
    for (const [q, u] of [
      [q30, a],
      [q20, a],
      [q30, b],
      [q20, c],
      [q10, c],
      [q30, d],
    ] as const)
      expect((await complete(q, u.userId)).body).toMatchObject({ created: true });
    const again = await complete(q30, a.userId);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    const notRegistered = await complete(q30, e.userId);
    expect(notRegistered.status).toBe(400);
    expect(notRegistered.body.error).toBe('quest_not_completable');
    const eventQuests = await call(a, 'get', '/quests');
    expect(eventQuests.body).toHaveLength(3);
    expect(eventQuests.body.filter((q: { completed: boolean }) => q.completed)).toHaveLength(2);

    // sync
    expect((await call(a, 'get', '/participant/sync')).body).toMatchObject({ status: 1, score: 50 });
    expect((await call(a, 'get', '/participant/sync')).body).toMatchObject({ score: 50 });
    expect((await call(e, 'get', '/participant/sync')).body).toMatchObject({ code: 10002, error: 'participant_transition' });

    const board = async () =>
      (await call(a, 'get', '/leaderboard')).body.items.map((i: { userId: string; rank: number; amount: number }) => [
        i.userId,
        i.rank,
        i.amount,
      ]);
    expect(await board()).toEqual([
      [a.userId, 1, 50],
      [b.userId, 2, 30],
      [c.userId, 2, 30],
      [d.userId, 2, 30],
    ]);
    expect((await call(c, 'get', '/participant/rank')).body).toMatchObject({ rank: 2, score: 30, totalRanked: 4 });

    // c cancels: final, the score leaves the leaderboard
    expect((await call(c, 'put', '/participant/cancel')).body).toMatchObject({ status: 4, statusName: 'CANCELLED', score: 0 });
    expect(await board()).toEqual([
      [a.userId, 1, 50],
      [b.userId, 2, 30],
      [d.userId, 2, 30],
    ]);
    expect((await call(c, 'get', '/participant/rank')).body).toMatchObject({ status: 4, rank: null });
    expect((await call(c, 'post', '/participant/register')).body.detail).toContain('CANCELLED');

    // d is dropped by the management API
    const dropped = await api.post(`/v1/admin/quest-events/${event.id}/participants/drop`, { userId: d.userId, reason: 'Cheating' });
    expect(dropped.status).toBe(200);
    expect(dropped.body).toMatchObject({ status: 3, dropReason: 'Cheating' });
    expect(await board()).toEqual([
      [a.userId, 1, 50],
      [b.userId, 2, 30],
    ]);
    expect((await call(a, 'get')).body.registeredCount).toBe(2);

    // end: the worker completes the event and allocates tickets
    t.clock.advance(8 * HOUR);
    expect(await status()).toBe('ended');
    expect(await t.app.get(EventCompletionService).runOnce()).toEqual([event.id]);
    expect(await t.app.get(EventCompletionService).runOnce()).toEqual([]);
    expect(await status()).toBe('completed');

    const allocations = async (u: typeof a) =>
      (await call(u, 'get', '/reward/allocations')).body as {
        id: string;
        tickets: number;
        rank: number;
        score: number;
        reward: { name: string };
        requirementData: unknown;
      }[];
    const aAlloc = await allocations(a);
    expect(aAlloc.map((x) => [x.reward.name, x.tickets, x.rank, x.score])).toEqual([
      ['Top prize', 2, 1, 50],
      ['Badge', 1, 1, 50],
    ]);
    const bAlloc = await allocations(b);
    expect(bAlloc.map((x) => [x.reward.name, x.tickets, x.rank])).toEqual([['Badge', 1, 2]]);
    for (const u of [c, d, e]) expect(await allocations(u)).toEqual([]);
    const types = (await t.http().get(`/v1/user/notifications?containerId=${community.id}`).set('Authorization', a.auth)).body.items.map(
      (n: { type: string }) => n.type,
    );
    expect(types).toEqual(expect.arrayContaining(['event_registered', 'event_completed', 'tickets_allocated']));

    // claims
    const topAlloc = aAlloc.find((x) => x.reward.name === 'Top prize')!;
    const claim = (u: typeof a, id: string, body: object) => call(u, 'post', `/reward/allocations/claim/${id}`, body);
    expect((await claim(a, topAlloc.id, {})).body).toMatchObject({ code: 10002, error: 'claim_requirements' });
    expect((await claim(a, topAlloc.id, { walletAddress: '0x52908400098527886E0F7030069857D2E4169Ee7' })).body.error).toBe(
      'claim_requirements',
    ); // bad checksum
    // A Sui address is well formed, but this reward takes EVM addresses (its walletChain); another length is no address.
    const sui = await claim(a, topAlloc.id, { walletAddress: `0x${'ab'.repeat(32)}` });
    expect(sui.body).toMatchObject({ message: 'generic_client_error', error: 'claim_requirements' });
    expect(sui.body.detail).toContain('an EVM wallet address');
    const short = await claim(a, topAlloc.id, { walletAddress: `0x${'ab'.repeat(25)}` });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('40 (EVM) or 64 (Sui) hexadecimal digits');
    const first = await claim(a, topAlloc.id, { walletAddress: '0x52908400098527886e0f7030069857d2e4169ee7' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'processed',
      ticketsSpent: 1,
      allocation: { ticketsRemaining: 1, requirementData: { walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' } },
    });
    expect((await claim(a, topAlloc.id, { walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' })).status).toBe(200);
    const third = await claim(a, topAlloc.id, { walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    expect(third.status).toBe(400);
    expect(third.body.error).toBe('not_enough_tickets');
    const xpRank = await t.http().get(`/v1/community/${community.id}/ranking/xp`).set('Authorization', a.auth);
    expect(xpRank.body).toMatchObject({ amount: 1000 });

    expect((await claim(b, topAlloc.id, { walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' })).status).toBe(404);
    const bBadge = bAlloc[0];
    expect(
      (await claim(b, bBadge.id, { email: 'not-an-email', address: { addressLine1: 'x', city: 'y', postalCode: '1', country: 'FR' } }))
        .status,
    ).toBe(400);
    expect((await claim(b, bBadge.id, { email: 'b@example.com', address: { city: 'Paris' } })).body.error).toBe('claim_requirements');
    const address = { addressLine1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
    const ok = await claim(b, bBadge.id, { email: 'b@example.com', address });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('pending_fulfilment');
    expect((await claim(b, bBadge.id, { email: 'b@example.com', address })).body.error).toBe('not_enough_tickets');
    expect((await allocations(b))[0]).toMatchObject({ ticketsRemaining: 0, requirementData: { email: 'b@example.com', address } });
    const bTypes = (await t.http().get(`/v1/user/notifications?containerId=${community.id}`).set('Authorization', b.auth)).body.items.map(
      (n: { type: string }) => n.type,
    );
    expect(bTypes).toContain('claim_processed');

    // after completion nothing changes any more
    expect((await call(a, 'put', '/participant/cancel')).body.error).toBe('event_already_ended');
    expect((await api.post(`/v1/admin/quest-events/${event.id}/participants/drop`, { userId: a.userId })).body.error).toBe(
      'event_already_ended',
    );
  });
});
