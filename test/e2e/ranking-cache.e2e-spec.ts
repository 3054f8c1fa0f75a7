import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import type { TestUser } from '../helpers/factories.js';
import { givenCommunity, givenMember } from '../helpers/quests.js';
import { createTwoTestApps, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * A player's ranking is cached per process like the leaderboard pages. Two instances on one
 * database, read caches that never expire during the test: a row changed behind the service's back
 * stays hidden (the ranking is cached), and so does a grant to a player far from the scores it shows;
 * a grant across them or a deduction of the player's own balance, through either instance, shows
 * at once on the instance that made it and in the other's next read, because the drop travels on
 * the cache bus, not because the value aged out.
 */
describe('rankings, cached across instances', () => {
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string; slug: string };
  let u: TestUser;
  let other: TestUser;
  let far: TestUser;

  beforeAll(async () => {
    const env = { READ_CACHE_MS: '60000', MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' };
    [a, b] = await createTwoTestApps(env);
    tenant = await a.givenTenant();
    c = await givenCommunity(a, tenant);
    xp = await givenResourceType(a, tenant, c.id);
    u = await givenMember(a, tenant, c);
    other = await givenMember(a, tenant, c);
    far = await givenMember(a, tenant, c);
    expect((await grant(a, tenant, u.userId, xp.id, 10)).status).toBe(201);
    expect((await grant(a, tenant, other.userId, xp.id, 20)).status).toBe(201);
    expect((await grant(a, tenant, far.userId, xp.id, 100)).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const ranking = async (app: TestApp, who = u, query = '') => {
    const res = await app
      .http()
      .get(`/v1/community/${c.id}/ranking/${xp.slug}?neighbours=1${query}`)
      .set('Authorization', who.auth)
      .expect(200);
    return res.body as { rank: number; amount: number; balance: number; totalRanked: number; above: { userId: string; amount: number }[] };
  };

  it('keeps a ranking until a write that concerns it drops it, on the writing instance and through the bus on the other', async () => {
    expect(await ranking(a)).toMatchObject({ rank: 3, amount: 10, balance: 10, totalRanked: 3 });
    expect(await ranking(b)).toMatchObject({ rank: 3, amount: 10, balance: 10 });

    // Behind the service's back: the cached rankings stay (nothing dropped them).
    await a.dataSource.query('UPDATE resource_balances SET balance = 999 WHERE user_id = $1 AND resource_type_id = $2', [u.userId, xp.id]);
    expect(await ranking(a)).toMatchObject({ balance: 10 });
    // A move far above the scores this ranking shows (100 -> 150, it shows 10 and 20) does not drop it.
    expect((await grant(a, tenant, far.userId, xp.id, 50)).status).toBe(201);
    expect(await ranking(a)).toMatchObject({ rank: 3, balance: 10 });
    expect(await ranking(a, far)).toMatchObject({ rank: 1, amount: 150 });
    await a.dataSource.query('UPDATE resource_balances SET balance = 10 WHERE user_id = $1 AND resource_type_id = $2', [u.userId, xp.id]);

    // The player overtakes the other one through b: b answers at its commit, a after the bus.
    expect((await grant(b, tenant, u.userId, xp.id, 15)).status).toBe(201);
    expect(await ranking(b)).toMatchObject({ rank: 2, amount: 25, balance: 25 });
    await until(
      () => ranking(a),
      (r) => r.rank === 2 && r.amount === 25,
    );
    // Another player's ranking moved too (their neighbour and rank changed).
    expect(await ranking(a, other)).toMatchObject({ rank: 3, above: [{ userId: u.userId, amount: 25 }] });

    // A deduction lowers the balance, not the board: the ranking still shows it, on both.
    const res = await adminApi(a, tenant).post('/v1/admin/resources/deductions', {
      userId: u.userId,
      resourceTypeId: xp.id,
      amount: 5,
      reason: 'test',
      idempotencyKey: `ded-${Date.now()}`,
    });
    expect(res.status).toBe(201);
    expect(await ranking(a)).toMatchObject({ rank: 2, amount: 25, balance: 20 });
    await until(
      () => ranking(b),
      (r) => r.balance === 20,
    );
  });

  it('caches live season rankings the same way (their own scores, the resource balance)', async () => {
    const now = a.clock.now().getTime();
    const created = await adminApi(a, tenant).post('/v1/admin/seasons', {
      communityId: c.id,
      resourceTypeId: xp.id,
      name: 'Sprint',
      endsAt: new Date(now + 3_600_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const season = `&season=${created.body.id as string}`;
    for (const app of [a, b]) app.clock.advance(3000);
    expect((await grant(a, tenant, u.userId, xp.id, 5)).status).toBe(201);
    expect((await grant(a, tenant, other.userId, xp.id, 7)).status).toBe(201);
    expect((await grant(a, tenant, far.userId, xp.id, 50)).status).toBe(201);
    expect(await ranking(a, u, season)).toMatchObject({ rank: 3, amount: 5, balance: 25, totalRanked: 3 });
    expect(await ranking(b, u, season)).toMatchObject({ rank: 3, amount: 5 });

    await a.dataSource.query('UPDATE season_scores SET score = 999 WHERE season_id = $1 AND user_id = $2', [created.body.id, u.userId]);
    // Hidden: cached, and a move far above its scores (50 -> 100; it shows 5 and 7) does not drop it.
    expect((await grant(a, tenant, far.userId, xp.id, 50)).status).toBe(201);
    expect(await ranking(a, u, season)).toMatchObject({ rank: 3, amount: 5 });
    await a.dataSource.query('UPDATE season_scores SET score = 5 WHERE season_id = $1 AND user_id = $2', [created.body.id, u.userId]);

    // A move across it (5 -> 15 passes the other player's 7), through b: both show it.
    expect((await grant(b, tenant, u.userId, xp.id, 10)).status).toBe(201);
    expect(await ranking(b, u, season)).toMatchObject({ rank: 2, amount: 15, balance: 35 });
    await until(
      () => ranking(a, u, season),
      (r) => r.rank === 2 && r.amount === 15,
    );
    // A deduction changes only the balance it shows.
    const res = await adminApi(b, tenant).post('/v1/admin/resources/deductions', {
      userId: u.userId,
      resourceTypeId: xp.id,
      amount: 1,
      reason: 'test',
      idempotencyKey: `ded-season-${Date.now()}`,
    });
    expect(res.status).toBe(201);
    expect(await ranking(b, u, season)).toMatchObject({ rank: 2, amount: 15, balance: 34 });
    await until(
      () => ranking(a, u, season),
      (r) => r.balance === 34,
    );
  });
  it('drops them as well when a grant names the player and the resource type in upper case', async () => {
    const x = await givenMember(a, tenant, c);
    const y = await givenMember(a, tenant, c);
    expect((await grant(a, tenant, x.userId, xp.id, 3)).status).toBe(201);
    expect((await grant(a, tenant, y.userId, xp.id, 4)).status).toBe(201);
    const before = await ranking(a, x);
    expect(before).toMatchObject({ amount: 3, balance: 3 });
    expect(await ranking(b, x)).toMatchObject({ amount: 3 });
    const page = async (app: TestApp) =>
      (
        await app
          .http()
          .get(`/v1/community/${c.id.toUpperCase()}/leaderboard/${xp.slug}?limit=100`)
          .set('X-Tenant-Id', tenant.id)
          .expect(200)
      ).body as { items: { userId: string; amount: number }[] };
    expect((await page(a)).items.find((i) => i.userId === x.userId)?.amount).toBe(3);

    // Ids are compared as strings by the caches and their drops: an id in upper case is the same id.
    expect((await grant(a, tenant, x.userId.toUpperCase(), xp.id.toUpperCase(), 2)).status).toBe(201);
    expect(await ranking(a, x)).toMatchObject({ rank: before.rank - 1, amount: 5, balance: 5 });
    expect((await page(a)).items.find((i) => i.userId === x.userId)?.amount).toBe(5);
    await until(
      () => ranking(b, x),
      (r) => r.amount === 5,
    );
  });
});
