import { DEMO, seedDemo, type DemoSummary } from '../../src/seed/demo-seed.js';
import { useTestApp } from '../helpers/test-app.js';

/** Every table the demo writes to, counted to prove a re-run adds nothing. */
const TABLES = [
  'tenants',
  'users',
  'communities',
  'community_members',
  'referrals',
  'resource_types',
  'resource_ledger',
  'resource_balances',
  'quests',
  'quest_completions',
  'quest_events',
  'quest_event_rewards',
  'quest_event_participants',
  'quest_event_reward_allocations',
  'inventory_slots',
  'inventory_items',
  'user_items',
  'item_grants',
  'avatar_slots',
  'store_requirements',
  'store_listings',
  'store_purchases',
  'prizes',
  'prize_awards',
  'notifications',
  'season_schedules',
  'seasons',
  'season_standings',
  'season_payouts',
];

describe('the demo seed', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
  let first: DemoSummary;
  const lines: string[] = [];

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) out[table] = (await t.dataSource.query(`SELECT COUNT(*)::int AS n FROM ${table}`))[0].n;
    return out;
  };

  beforeAll(async () => {
    first = await seedDemo(t.app, { log: (l) => lines.push(l) });
  });

  it('creates the demo tenant with its credentials and prints its progress', () => {
    expect(first).toMatchObject({ tenantSlug: 'demo', communitySlug: DEMO.community, eventSlug: DEMO.event, password: DEMO.password });
    expect(first.apiKey).toMatch(/^cgs_key_/);
    expect(first.sharedSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.created).toBeGreaterThan(50);
    expect(lines[0]).toContain('Seeding the demo tenant');
    expect(lines.some((l) => l.includes('quest events in every state') && l.includes('made'))).toBe(true);
    expect(lines.at(-1)).toMatch(/Demo data ready/);
  });

  it('changes nothing when run again, and says so', async () => {
    const before = await counts();
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const again: string[] = [];
    const second = await seedDemo(t.app, { log: (l) => again.push(l) });
    expect(second.created).toBe(0);
    expect(second.apiKey).toBeNull();
    expect(second.tenantId).toBe(first.tenantId);
    expect(second.sharedSecret).toBe(first.sharedSecret);
    expect(again.at(-1)).toContain('nothing to do');
    expect(await counts()).toEqual(before);
  });

  it('rotates the API key only when asked, and the new key works', async () => {
    const rotated = await seedDemo(t.app, { rotateApiKey: true });
    expect(rotated.apiKey).toMatch(/^cgs_key_/);
    expect(rotated.apiKey).not.toBe(first.apiKey);
    expect((await t.http().get(`/v1/admin/communities/${DEMO.community}`).set('X-Api-Key', first.apiKey!)).status).toBe(401);
    const ok = await t.http().get(`/v1/admin/communities/${DEMO.community}`).set('X-Api-Key', rotated.apiKey!);
    expect(ok.status).toBe(200);
    first = rotated;
  });

  it('has an event in each state, rewards, and a store with listings and requirements', async () => {
    const admin = (path: string) => t.http().get(path).set('X-Api-Key', first.apiKey!);
    const statuses: Record<string, string> = {};
    for (const slug of [DEMO.event, 'harbour-skirmish', 'autumn-regatta', 'winter-league', 'secret-treasure-hunt', 'stormy-meetup']) {
      statuses[slug] = (await admin(`/v1/admin/quest-events/${slug}`)).body.status;
    }
    expect(statuses).toEqual({
      [DEMO.event]: 'active',
      'harbour-skirmish': 'completed',
      'autumn-regatta': 'registration_open',
      'winter-league': 'upcoming',
      'secret-treasure-hunt': 'draft',
      'stormy-meetup': 'cancelled',
    });
    expect((await admin(`/v1/admin/quest-events/${DEMO.event}/rewards`)).body).toHaveLength(3);
    const listings = (await admin(`/v1/admin/store/listings?containerId=${DEMO.community}`)).body;
    expect(listings.total).toBe(4);
    expect(listings.items.some((l: { requirementIds: string[] }) => l.requirementIds.length > 0)).toBe(true);
    expect((await admin('/v1/admin/prizes')).body.total).toBe(4);
  });

  it('runs a weekly XP season: last week closed with its winners paid, this week counting what was earned since it started', async () => {
    const pub = (path: string) => t.http().get(path).set('X-Tenant-Id', 'demo').expect(200);
    const closed = (await pub(`/v1/community/${DEMO.community}/seasons?resource=xp&status=closed`)).body.items;
    expect(closed).toEqual([expect.objectContaining({ name: 'Weekly XP #1', number: 1, ranked: 4 })]);
    const final = (await pub(`/v1/community/${DEMO.community}/leaderboard/xp?season=${closed[0].id}`)).body.items;
    expect(final.map((e: { handle: string; rank: number }) => [e.handle, e.rank])).toEqual([
      ['alice', 1],
      ['demo', 2],
      ['bob', 3],
      ['carol', 4],
    ]);
    const paid = await t.dataSource.query(`SELECT status, COUNT(*)::int AS n FROM season_payouts WHERE season_id = $1 GROUP BY status`, [
      closed[0].id,
    ]);
    expect(paid).toEqual([{ status: 'paid', n: 4 }]);
    const live = (await pub(`/v1/community/${DEMO.community}/leaderboard/xp?season=current`)).body.items;
    expect(live.map((e: { handle: string; amount: number }) => [e.handle, e.amount])).toEqual([
      ['carol', 60],
      ['dave', 40],
      ['demo', 25],
    ]);
  });

  it('lets a demo user log in and see the leaderboards, quests, inventory and allocations', async () => {
    const login = await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Tenant-Id', 'demo')
      .send({ username: 'demo', password: DEMO.password });
    expect(login.status).toBe(200);
    const get = (path: string) => t.http().get(path).set('Authorization', `Bearer ${login.body.sessionToken}`);

    const board = await get(`/v1/community/${DEMO.community}/leaderboard/xp`);
    expect(board.status).toBe(200);
    expect(board.body.total).toBe(5);
    expect(board.body.items[0]).toMatchObject({ rank: 1, userId: login.body.userId });
    const ranks = board.body.items.map((i: { rank: number }) => i.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);

    const cup = await get(`/v1/quest-event/${DEMO.event}/leaderboard`);
    expect(cup.body.total).toBe(4);
    expect(cup.body.items[0].amount).toBe(80);

    const tags = await get(
      `/v1/community/${DEMO.community}/quests/tags?excludeTemplateTags=false&userAvailableQuests=false&includeRewards=true&userId=${login.body.userId}`,
    );
    expect(tags.status).toBe(200);
    expect(tags.body.map((x: { tag: string }) => x.tag)).toEqual(expect.arrayContaining(['social', 'onboarding', 'pvp', 'cup']));

    const items = await get(`/v1/community/${DEMO.community}/inventory/items?onlyOwned=true&userId=${login.body.userId}`);
    expect(items.body.total).toBe(3);
    const allocations = await get('/v1/quest-event/harbour-skirmish/reward/allocations');
    expect(allocations.body).toHaveLength(1);
    expect((await get(`/v1/store/purchase?containerId=${DEMO.community}`)).body.total).toBe(1);
  });
});
