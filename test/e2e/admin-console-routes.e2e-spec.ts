import { DEMO, seedDemo, type DemoSummary } from '../../src/seed/demo-seed.js';
import { useTestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;

/**
 * The management routes the operator console reads (console/): the tenant's events with drafts,
 * an event's participants in every status and its allocations, a community's members with search,
 * its resource types, the leaderboard and a player's ranking, a closed season's final standings
 * and payouts, a community's earnings per day. On the demo data (a weekly XP season whose last
 * week closed with its winners paid).
 */
describe('management routes of the operator console', () => {
  const t = useTestApp();
  let demo: DemoSummary;
  const get = (path: string, key = demo.apiKey!) => t.http().get(path).set('X-Api-Key', key);
  let xp: string;
  let ids: Record<string, string>;
  const grant = (userId: string, amount: number, key: string) =>
    t
      .http()
      .post('/v1/admin/resources/grants')
      .set('X-Api-Key', demo.apiKey!)
      .send({ userId, resourceTypeId: xp, amount, reason: 'e2e', idempotencyKey: `console-reads-${key}` })
      .expect(201);

  beforeAll(async () => {
    demo = await seedDemo(t.app);
    const types = await get('/v1/admin/resources/types?communityId=pixel-pirates&limit=100').expect(200);
    xp = (types.body.items as { id: string; slug: string }[]).find((x) => x.slug === 'xp')!.id;
    ids = {};
    for (const handle of ['alice', 'bob', 'demo']) ids[handle] = (await get(`/v1/admin/users/${handle}`).expect(200)).body.userId;
  }, 120_000);

  it('lists every event of the tenant, drafts included, latest start first, by community and status, paginated', async () => {
    const all = await get('/v1/admin/quest-events?limit=100');
    expect(all.status).toBe(200);
    const statuses = all.body.items.map((e: { status: string }) => e.status);
    expect(statuses).toEqual(expect.arrayContaining(['draft', 'cancelled', 'completed', 'active', 'upcoming', 'registration_open']));
    const starts = all.body.items.map((e: { startsAt: string }) => e.startsAt);
    expect(starts).toEqual([...starts].sort().reverse());

    const drafts = await get(`/v1/admin/quest-events?status=draft&communityId=${DEMO.community}`);
    expect(drafts.body.items.length).toBeGreaterThan(0);
    expect(drafts.body.items.every((e: { status: string }) => e.status === 'draft')).toBe(true);

    const page = await get('/v1/admin/quest-events?limit=2&page=2');
    expect(page.body).toMatchObject({ page: 2, limit: 2, total: all.body.total });
    expect(page.body.items.map((e: { id: string }) => e.id)).toEqual(all.body.items.slice(2, 4).map((e: { id: string }) => e.id));

    expect((await get('/v1/admin/quest-events?status=soon')).body).toMatchObject({
      error: 'validation_failed',
      details: { fields: ['status'] },
    });
    expect((await get('/v1/admin/quest-events?communityId=nowhere')).status).toBe(404);
    expect((await get('/v1/admin/quest-events', 'cgs_key_wrong')).status).toBe(401);
  });

  it("lists an event's participants in every ParticipantStatus, or one, and its allocations", async () => {
    const all = await get(`/v1/admin/quest-events/${DEMO.event}/participants?limit=100`);
    expect(all.status).toBe(200);
    expect(all.body.items.length).toBeGreaterThan(0);
    expect(Object.keys(all.body.items[0]).sort()).toEqual(
      ['userId', 'handle', 'displayName', 'status', 'statusName', 'score', 'registeredAt', 'statusChangedAt', 'dropReason'].sort(),
    );
    expect(all.body.items[0]).toMatchObject({
      userId: expect.any(String),
      handle: expect.any(String),
      status: expect.any(Number),
      statusName: expect.any(String),
      score: expect.any(Number),
      registeredAt: expect.any(String),
      statusChangedAt: expect.any(String),
      dropReason: null,
    });
    const victim = all.body.items.find((p: { status: number }) => p.status === 1);
    const drop = await t
      .http()
      .post(`/v1/admin/quest-events/${DEMO.event}/participants/drop`)
      .set('X-Api-Key', demo.apiKey!)
      .send({ userId: victim.userId, reason: 'cheating' });
    expect(drop.status).toBe(200);
    const dropped = await get(`/v1/admin/quest-events/${DEMO.event}/participants?status=3`);
    expect(dropped.body.items).toEqual([expect.objectContaining({ userId: victim.userId, statusName: 'DROPPED', dropReason: 'cheating' })]);
    expect((await get(`/v1/admin/quest-events/${DEMO.event}/participants?status=7`)).status).toBe(400);

    const allocations = await get('/v1/admin/quest-events/harbour-skirmish/allocations');
    expect(allocations.status).toBe(200);
    expect(allocations.body.total).toBeGreaterThan(0);
    expect(allocations.body.items[0]).toMatchObject({
      userId: expect.any(String),
      handle: expect.stringMatching(/^(alice|bob|carol|demo)$/),
      tickets: expect.any(Number),
      reward: { name: expect.any(String) },
    });
    const ranks = allocations.body.items.map((a: { rank: number | null }) => a.rank ?? Infinity);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect((await get(`/v1/admin/quest-events/${DEMO.event}/allocations`)).body).toMatchObject({ items: [], total: 0 });
  });

  it("lists a community's members, newest first, searched by a part of the handle or name (LIKE wildcards are literal)", async () => {
    const all = await get(`/v1/admin/communities/${DEMO.community}/members?limit=100`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { handle: string }) => m.handle)).toEqual(expect.arrayContaining([...DEMO.users]));
    const joined = all.body.items.map((m: { joinedAt: string }) => m.joinedAt);
    expect(joined).toEqual([...joined].sort().reverse());
    const ali = await get(`/v1/admin/communities/${DEMO.community}/members?query=LIC`);
    expect(ali.body.items.map((m: { handle: string }) => m.handle)).toEqual(['alice']);
    expect((await get(`/v1/admin/communities/${DEMO.community}/members?query=%25`)).body.total).toBe(0);
    expect((await get(`/v1/admin/communities/${DEMO.community}/members?query=_`)).body.total).toBe(
      all.body.items.filter((m: { handle: string; displayName: string | null }) => `${m.handle}${m.displayName ?? ''}`.includes('_'))
        .length,
    );
    expect((await get(`/v1/admin/communities/${DEMO.community}/members?query=${'x'.repeat(65)}`)).status).toBe(400);
  });

  it('lists resource types, the leaderboard and a ranking the way players see them', async () => {
    const types = await get(`/v1/admin/resources/types?communityId=${DEMO.community}`);
    expect(types.status).toBe(200);
    expect(types.body.items.map((r: { slug: string }) => r.slug)).toContain('xp');
    const board = await get(`/v1/admin/resources/leaderboard?communityId=${DEMO.community}&resourceType=xp`);
    const publicBoard = await t.http().get(`/v1/community/${DEMO.community}/leaderboard/xp`).set('X-Tenant-Id', DEMO.tenant);
    expect(board.body).toEqual(publicBoard.body);
    const second = board.body.items[1];
    const ranking = await get(
      `/v1/admin/resources/ranking?communityId=${DEMO.community}&resourceType=xp&userId=${second.userId}&neighbours=1`,
    );
    expect(ranking.body).toMatchObject({ slug: 'xp', userId: second.userId, rank: 2, amount: second.amount });
    expect(ranking.body.above).toEqual([expect.objectContaining({ rank: 1 })]);
    expect((await get(`/v1/admin/resources/leaderboard?communityId=${DEMO.community}&resourceType=gold`)).status).toBe(404);
    expect((await get(`/v1/admin/resources/ranking?communityId=${DEMO.community}&resourceType=xp&userId=nope`)).status).toBe(400);
  });

  it('shows who a user is, by id or handle (any case), without credentials', async () => {
    const byHandle = await get('/v1/admin/users/ALICE');
    expect(byHandle.status).toBe(200);
    expect(Object.keys(byHandle.body).sort()).toEqual(['createdAt', 'displayName', 'handle', 'userId', 'username']);
    expect(byHandle.body).toMatchObject({ handle: 'alice', username: 'alice' });
    expect((await get(`/v1/admin/users/${byHandle.body.userId.toUpperCase()}`)).body).toEqual(byHandle.body);
    expect((await get('/v1/admin/users/nobody-here')).body).toMatchObject({ error: 'user_not_found' });
    expect((await get(`/v1/admin/users/${'x'.repeat(200)}`)).status).toBe(404);
    const other = await t.givenTenant();
    expect((await get(`/v1/admin/users/${byHandle.body.userId}`, other.apiKey)).status).toBe(404);
  });

  async function lastWeek(): Promise<string> {
    const closed = await get('/v1/admin/seasons?communityId=pixel-pirates&status=closed').expect(200);
    expect(closed.body.items.map((s: { name: string }) => s.name)).toEqual(['Weekly XP #1']);
    return closed.body.items[0].id;
  }

  it("reads a closed season's final standings through the admin leaderboard (ties to who reached the score first)", async () => {
    const season = await lastWeek();
    const board = await get(`/v1/admin/resources/leaderboard?communityId=pixel-pirates&resourceType=xp&season=${season}`).expect(200);
    expect(board.body.items.map((e: { rank: number; handle: string; amount: number }) => [e.rank, e.handle, e.amount])).toEqual([
      [1, 'alice', 420],
      [2, 'demo', 380],
      [3, 'bob', 380],
      [4, 'carol', 150],
    ]);
    expect(
      (await get('/v1/admin/resources/leaderboard?communityId=pixel-pirates&resourceType=xp&season=last').expect(400)).body,
    ).toMatchObject({
      message: 'generic_client_error',
      error: 'validation_failed',
    });
  });

  it("pages through a season's payouts in final-place order, each with its reward", async () => {
    const season = await lastWeek();
    const first = await get(`/v1/admin/seasons/${season}/payouts?limit=2`).expect(200);
    expect(first.body).toMatchObject({ total: 4, hasNextPage: true, page: 1 });
    expect(first.body.items).toEqual([
      expect.objectContaining({ userId: ids.alice, position: 1, reward: 0, type: 'prize', amount: 1, status: 'paid', error: null }),
      expect.objectContaining({ userId: ids.alice, position: 1, reward: 1, type: 'resource', refId: xp, amount: 50, status: 'paid' }),
    ]);
    const second = await get(`/v1/admin/seasons/${season}/payouts?limit=2&page=2`).expect(200);
    expect(second.body.items.map((p: { userId: string; position: number }) => [p.userId, p.position])).toEqual([
      [ids.demo, 2],
      [ids.bob, 3],
    ]);
    expect(second.body.hasNextPage).toBe(false);
    expect((await get('/v1/admin/seasons/00000000-0000-4000-8000-000000000009/payouts').expect(404)).body.error).toBe('season_not_found');
    expect((await get('/v1/admin/seasons/not-a-season/payouts').expect(404)).body.error).toBe('season_not_found');
  });

  it("lists a community's inventory slots and pages its items (of one slot too) with supply and units granted", async () => {
    const slots = await get(`/v1/admin/inventory/slots?communityId=${DEMO.community}`).expect(200);
    const keys = (slots.body as { key: string; position: number }[]).map((x) => x.key);
    expect(keys).toEqual(expect.arrayContaining(['head', 'background']));
    const positions = (slots.body as { position: number }[]).map((x) => x.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    const all = await get(`/v1/admin/inventory/items?communityId=${DEMO.community}&limit=100`).expect(200);
    const [{ n }] = await t.dataSource.query(
      'SELECT COUNT(*)::int AS n FROM inventory_items i JOIN communities c ON c.id = i.community_id WHERE c.slug = $1',
      [DEMO.community],
    );
    expect(all.body.total).toBe(n);
    const hat = all.body.items.find((i: { name: string }) => i.name === 'Pirate hat');
    expect(hat).toMatchObject({ slotKey: 'head', granted: expect.any(Number) });
    expect(hat.granted).toBeGreaterThanOrEqual(1);

    const heads = await get(`/v1/admin/inventory/items?communityId=${DEMO.community}&slotId=head&limit=100`).expect(200);
    expect(heads.body.items.length).toBeGreaterThan(0);
    expect(heads.body.items.every((i: { slotKey: string }) => i.slotKey === 'head')).toBe(true);
    const second = await get(`/v1/admin/inventory/items?communityId=${DEMO.community}&limit=1&page=2`).expect(200);
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([all.body.items[1].id]);

    expect((await get('/v1/admin/inventory/items?communityId=nowhere')).body).toMatchObject({ error: 'community_not_found' });
    expect((await get(`/v1/admin/inventory/items?communityId=${DEMO.community}&slotId=nope`)).body).toMatchObject({
      error: 'slot_not_found',
    });
    expect((await get('/v1/admin/inventory/slots')).body).toMatchObject({
      message: 'generic_client_error',
      details: { fields: ['communityId'] },
    });
    expect((await get(`/v1/admin/inventory/slots?communityId=${DEMO.community}`, 'cgs_key_wrong')).status).toBe(401);
  });

  it('sums what was earned per UTC day, every day of the window listed, deductions left out', async () => {
    // Who earned today before the grants below (the seed credits this week's XP and last week's payouts today).
    const earnersToday = await t.dataSource.query<{ user_id: string }[]>(
      "SELECT DISTINCT user_id FROM resource_ledger WHERE resource_type_id = $1 AND earned_delta > 0 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
      [xp],
    );
    const todayEarners = new Set(earnersToday.map((r) => r.user_id));
    const url = '/v1/admin/resources/earned-per-day?communityId=pixel-pirates&resourceType=xp&days=3';
    const before = (await get(url).expect(200)).body as { slug: string; days: { day: string; earned: number; players: number }[] };
    const today = t.clock.now().toISOString().slice(0, 10);
    const yesterday = new Date(t.clock.now().getTime() - DAY).toISOString().slice(0, 10);
    expect(before.slug).toBe('xp');
    expect(before.days.map((d) => d.day)).toEqual([
      new Date(t.clock.now().getTime() - 2 * DAY).toISOString().slice(0, 10),
      yesterday,
      today,
    ]);

    await grant(ids.alice, 100, 'a');
    await grant(ids.alice, 5, 'b');
    t.clock.advance(-DAY);
    await grant(ids.bob, 7, 'c');
    t.clock.advance(DAY);
    // A deduction that lowers the earned total is not an earning.
    await t
      .http()
      .post('/v1/admin/resources/deductions')
      .set('X-Api-Key', demo.apiKey!)
      .send({ userId: ids.alice, resourceTypeId: xp, amount: 3, reason: 'e2e', lowerEarned: true, idempotencyKey: 'console-reads-d' })
      .expect(201);

    const after = (await get(url).expect(200)).body as typeof before;
    const delta = after.days.map((d, i) => [d.day, d.earned - before.days[i].earned]);
    expect(delta).toEqual([
      [before.days[0].day, 0],
      [yesterday, 7],
      [today, 105],
    ]);
    // Players are counted once a day, however many grants they got.
    const players = (days: typeof before.days) => days.map((d) => d.players);
    expect(players(after.days)).toEqual([
      players(before.days)[0],
      players(before.days)[1] + (before.days[1].earned > 0 ? 0 : 1),
      players(before.days)[2] + (todayEarners.has(ids.alice) ? 0 : 1),
    ]);
    expect((await get(url.replace('days=3', 'days=0')).expect(400)).body.details.fields).toEqual(['days']);
    expect((await get(url.replace('resourceType=xp', 'resourceType=nope')).expect(404)).body.error).toBe('resource_type_not_found');
  });

  describe("a player's view (support's screen)", () => {
    const unknown = '00000000-0000-4000-8000-0000000000ff';
    const refusals = async (route: string) => {
      expect((await get(`/v1/admin/users/${unknown}/${route}`).expect(404)).body.error).toBe('user_not_found');
      const bad = (await get(`/v1/admin/users/not-a-uuid/${route}`).expect(400)).body;
      expect(bad.message).toBe('generic_client_error');
      expect(bad.details.fields).toEqual(['userId']);
      expect((await get(`/v1/admin/users/${ids.demo}/${route}`, 'cgs_key_wrong')).status).toBe(401);
    };
    const keysOf = (v: unknown): string[] =>
      Array.isArray(v)
        ? v.flatMap(keysOf)
        : v !== null && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => [k, ...keysOf(x)])
          : [];

    it('lists the linked socials with no token, nor a hint of one, anywhere in the body', async () => {
      const res = await get(`/v1/admin/users/${ids.demo}/socials`).expect(200);
      expect(res.body).toEqual([
        {
          id: expect.any(String),
          accountType: 'discord',
          subjectId: '80351110224678912',
          handle: 'demo_pirate',
          server: null,
          public: true,
          linkedAt: expect.any(String),
        },
      ]);
      // The seed stored a user token: the row has one, the answer shows nothing of it.
      const [row] = await t.dataSource.query('SELECT user_token_encrypted FROM social_accounts WHERE user_id = $1', [ids.demo]);
      expect(row.user_token_encrypted).not.toBeNull();
      expect(keysOf(JSON.parse(res.text)).filter((k) => /token|secret/i.test(k))).toEqual([]);
      expect(res.text).not.toMatch(/demo-discord-access-token/);
      expect((await get(`/v1/admin/users/${ids.alice}/socials`).expect(200)).body).toEqual([]);
      await refusals('socials');
    });

    it('lists the wallets, an empty list for a player without one', async () => {
      expect((await get(`/v1/admin/users/${ids.demo}/wallets`).expect(200)).body).toEqual([
        { address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F', chain: 'evm:1', provider: 'siwe', createdAt: expect.any(String) },
      ]);
      expect((await get(`/v1/admin/users/${ids.bob}/wallets`).expect(200)).body).toEqual([]);
      await refusals('wallets');
    });

    it('pages the inventory of every community: slot, quantity, on the avatar or not', async () => {
      const all = await get(`/v1/admin/users/${ids.demo}/inventory?limit=100`).expect(200);
      const held = all.body.items.map(
        (i: { name: string; slotKey: string; quantity: number; allocated: boolean; communitySlug: string }) => [
          i.communitySlug,
          i.slotKey,
          i.name,
          i.quantity,
          i.allocated,
        ],
      );
      expect(held).toEqual(
        expect.arrayContaining([
          [DEMO.community, 'head', 'Pirate hat', 1, true],
          [DEMO.community, 'background', 'Open sea', 1, true],
        ]),
      );
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*)::int AS n FROM user_items WHERE user_id = $1 AND quantity > 0', [ids.demo]);
      expect(all.body.total).toBe(n);
      expect(all.body.items[0]).toMatchObject({ avatarMintStatus: null, acquiredAt: expect.any(String), rarity: expect.any(String) });
      const second = await get(`/v1/admin/users/${ids.demo}/inventory?limit=1&page=2`).expect(200);
      expect(second.body).toMatchObject({ page: 2, limit: 1, total: n, hasNextPage: n > 2 });
      expect(second.body.items.map((i: { itemId: string }) => i.itemId)).toEqual([all.body.items[1].itemId]);
      expect((await get(`/v1/admin/users/${ids.demo}/inventory?limit=0`).expect(400)).body.details.fields).toEqual(['limit']);
      await refusals('inventory');
    });

    it('pages the event participations with their ParticipantStatus and the event, latest registration first', async () => {
      const all = await get(`/v1/admin/users/${ids.demo}/participations?limit=100`).expect(200);
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*)::int AS n FROM quest_event_participants WHERE user_id = $1', [ids.demo]);
      expect(n).toBeGreaterThan(1);
      expect(all.body.total).toBe(n);
      expect(all.body.items[0]).toMatchObject({
        eventId: expect.any(String),
        eventSlug: expect.any(String),
        eventName: expect.any(String),
        eventStatus: expect.any(String),
        status: expect.any(Number),
        statusName: expect.any(String),
        registeredAt: expect.any(String),
      });
      const registered = all.body.items.map((p: { registeredAt: string }) => p.registeredAt);
      expect(registered).toEqual([...registered].sort().reverse());
      const rows: { event_id: string; status: number }[] = await t.dataSource.query(
        'SELECT event_id, status FROM quest_event_participants WHERE user_id = $1',
        [ids.demo],
      );
      const statuses = Object.fromEntries(rows.map((r) => [r.event_id, r.status]));
      expect(Object.fromEntries(all.body.items.map((p: { eventId: string; status: number }) => [p.eventId, p.status]))).toEqual(statuses);
      const second = await get(`/v1/admin/users/${ids.demo}/participations?limit=1&page=2`).expect(200);
      expect(second.body.items.map((p: { eventId: string }) => p.eventId)).toEqual([all.body.items[1].eventId]);
      await refusals('participations');
    });

    it('pages the notifications of every community, read or not, newest first', async () => {
      const all = await get(`/v1/admin/users/${ids.demo}/notifications?limit=100`).expect(200);
      const [{ n, unread }] = await t.dataSource.query(
        'SELECT COUNT(*)::int AS n, (COUNT(*) FILTER (WHERE read_at IS NULL))::int AS unread FROM notifications WHERE user_id = $1',
        [ids.demo],
      );
      expect(n).toBeGreaterThan(1);
      expect(all.body).toMatchObject({ total: n, unreadCount: unread });
      expect(all.body.items[0]).toMatchObject({
        type: expect.any(String),
        title: expect.any(String),
        read: expect.any(Boolean),
        createdAt: expect.any(String),
      });
      const created = all.body.items.map((x: { createdAt: string }) => x.createdAt);
      expect(created).toEqual([...created].sort().reverse());
      const second = await get(`/v1/admin/users/${ids.demo}/notifications?limit=1&page=2`).expect(200);
      expect(second.body.items.map((x: { id: string }) => x.id)).toEqual([all.body.items[1].id]);
      await refusals('notifications');
    });
  });
});
