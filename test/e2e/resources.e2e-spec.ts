import { CacheBus } from '../../src/database/cache-bus.js';
import { createTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { urlFor } from '../setup/test-database.js';
import { RankingService } from '../../src/resources/ranking.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

interface Entry {
  rank: number;
  userId: string;
  handle: string;
  displayName: string | null;
  amount: number;
}

describe('resources, the XP ledger, rankings and leaderboards', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  let other: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    other = await t.givenTenant();
  });

  const pub = (path: string) => t.http().get(path).set('X-Tenant-Id', tenant.id);
  const leaderboard = async (app: TestApp, c: TestCommunity, slug: string, query = '') => {
    const res = await app.http().get(`/v1/community/${c.id}/leaderboard/${slug}${query}`).set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(200);
    return res.body as { items: Entry[]; total: number; page: number; limit: number; hasNextPage: boolean };
  };
  const ranking = async (app: TestApp, c: TestCommunity, slug: string, u: TestUser) => {
    const res = await app.http().get(`/v1/community/${c.slug}/ranking/${slug}`).set('Authorization', u.auth);
    expect(res.status).toBe(200);
    return res.body;
  };
  const simplify = (items: Entry[]) => items.map((i) => [i.userId, i.rank, i.amount]);
  /** Σ ledger deltas vs balances for every user of the resource type. */
  const ledgerMismatches = async (resourceTypeId: string) =>
    t.dataSource.query(
      `SELECT b.user_id FROM resource_balances b
       LEFT JOIN (SELECT user_id, SUM(delta) AS d, SUM(earned_delta) AS e FROM resource_ledger WHERE resource_type_id = $1 GROUP BY user_id) l ON l.user_id = b.user_id
       WHERE b.resource_type_id = $1 AND (b.balance <> COALESCE(l.d, 0) OR b.earned <> COALESCE(l.e, 0))`,
      [resourceTypeId],
    );

  describe('resource types', () => {
    it('are created by the management API and read publicly, paginated', async () => {
      const c = await givenCommunity(t, tenant);
      const admin = adminApi(t, tenant);
      const xp = await admin.post('/v1/admin/resources/types', { communityId: c.slug, slug: 'xp', name: 'Experience', kind: 'global' });
      expect(xp.status).toBe(201);
      expect(xp.body).toMatchObject({ communityId: c.id, slug: 'xp', kind: 'global', questEventId: null, description: '' });
      const eventId = '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10';
      const tokens = await admin.post('/v1/admin/resources/types', {
        communityId: c.id,
        slug: 'event-tokens',
        name: 'Tokens',
        kind: 'scoped',
        questEventId: eventId,
      });
      expect(tokens.body).toMatchObject({ kind: 'scoped', questEventId: eventId });

      expect((await pub(`/v1/community/resource-types/${xp.body.id}`)).body).toEqual(xp.body);
      const page1 = await pub(`/v1/community/${c.id}/resource-types?limit=1`);
      expect(page1.body).toMatchObject({ total: 2, page: 1, limit: 1, hasNextPage: true });
      expect(page1.body.items[0].slug).toBe('xp'); // global first
      expect((await pub(`/v1/community/${c.slug}/resource-types?page=2&limit=1`)).body.items[0].slug).toBe('event-tokens');
      expect((await pub(`/v1/community/${c.id}/resource-types?limit=101`)).body).toMatchObject({ code: 10002 });
      expect((await pub(`/v1/community/${c.id}/resource-types?page=0`)).status).toBe(400);

      const renamed = await admin.patch(`/v1/admin/resources/types/${xp.body.id}`, { name: 'XP' });
      expect(renamed.body).toMatchObject({ name: 'XP', slug: 'xp' });
    });

    it('refuses a duplicate slug (409), a global type with a quest event (400), and other tenants (404)', async () => {
      const c = await givenCommunity(t, tenant);
      const admin = adminApi(t, tenant);
      const rt = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
      expect(
        (await admin.post('/v1/admin/resources/types', { communityId: c.id, slug: 'gems', name: 'x', kind: 'global' })).body,
      ).toMatchObject({ code: 20102 });
      const bad = await admin.post('/v1/admin/resources/types', {
        communityId: c.id,
        slug: 'g2',
        name: 'x',
        kind: 'global',
        questEventId: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10',
      });
      expect(bad.body).toMatchObject({ code: 10002, error: 'invalid_resource_type' });

      const foreign = adminApi(t, other);
      expect((await foreign.post('/v1/admin/resources/types', { communityId: c.id, slug: 'x', name: 'x', kind: 'global' })).status).toBe(
        404,
      );
      expect((await foreign.patch(`/v1/admin/resources/types/${rt.id}`, { name: 'x' })).body).toMatchObject({ code: 20101 });
      const u = await givenUser(t, tenant);
      expect((await grant(t, other, u.userId, rt.id, 5)).status).toBe(404);
      expect((await t.http().get(`/v1/community/resource-types/${rt.id}`).set('X-Tenant-Id', other.id)).status).toBe(404);
      expect((await pub('/v1/community/resource-types/not-a-uuid')).status).toBe(404);
    });

    it('answers 401 to management calls without or with a wrong API key', async () => {
      const res = await t.http().post('/v1/admin/resources/grants').send({});
      expect(res.body).toMatchObject({ code: 10413, message: 'GENERIC_UNAUTHORIZED', error: 'api_key_missing' });
      const wrong = await t.http().post('/v1/admin/resources/types').set('X-Api-Key', 'cgs_key_nope').send({});
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 10414, message: 'GENERIC_UNAUTHORIZED', error: 'api_key_invalid' });
      expect((await t.http().get('/v1/admin/resources/balances').set('X-Api-Key', other.apiKey.slice(0, -1)).query({})).status).toBe(401);
    });
  });

  describe('XP, leaderboard and rankings', () => {
    let c: TestCommunity;
    let xp: { id: string; slug: string };
    let a: TestUser, b: TestUser, cc: TestUser, d: TestUser, e: TestUser;

    beforeAll(async () => {
      c = await givenCommunity(t, tenant);
      xp = await givenResourceType(t, tenant, c.id, { slug: 'xp' });
      [a, b, cc, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => givenUser(t, tenant)));
      // B reaches 200 before C does: B ranks above C in lists, both share rank 2.
      await grant(t, tenant, a.userId, xp.id, 300).expect(201);
      t.clock.advance(1000);
      await grant(t, tenant, b.userId, xp.id, 100).expect(201);
      t.clock.advance(1000);
      const second = await grant(t, tenant, b.userId, xp.id, 100, 'b-second');
      expect(second.body).toMatchObject({ delta: 100, balance: 200, earned: 200, replayed: false });
      t.clock.advance(1000);
      const retried = await grant(t, tenant, b.userId, xp.id, 100, 'b-second');
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ entryId: second.body.entryId, balance: 200, earned: 200, replayed: true });
      await grant(t, tenant, cc.userId, xp.id, 200).expect(201);
      t.clock.advance(1000);
      await grant(t, tenant, d.userId, xp.id, 50).expect(201);
    });

    it('lists the leaderboard with shared ranks for ties, ordered by who reached the amount first', async () => {
      const lb = await leaderboard(t, c, 'xp');
      expect(lb).toMatchObject({ total: 4, page: 1, hasNextPage: false });
      expect(simplify(lb.items)).toEqual([
        [a.userId, 1, 300],
        [b.userId, 2, 200],
        [cc.userId, 2, 200],
        [d.userId, 4, 50],
      ]);
      expect(lb.items[0].handle).toBe(a.username);
      const page2 = await leaderboard(t, c, 'xp', '?limit=2&page=2');
      expect(page2).toMatchObject({ total: 4, page: 2, limit: 2, hasNextPage: false });
      expect(simplify(page2.items)).toEqual([
        [cc.userId, 2, 200],
        [d.userId, 4, 50],
      ]);
      expect((await leaderboard(t, c, 'xp', '?limit=1&page=3')).items.map((i) => i.rank)).toEqual([2]);
    });

    it('gives each user their rank, amount and neighbours', async () => {
      const rc = await ranking(t, c, 'xp', cc);
      expect(rc).toMatchObject({
        resourceTypeId: xp.id,
        slug: 'xp',
        userId: cc.userId,
        rank: 2,
        amount: 200,
        balance: 200,
        totalRanked: 4,
      });
      expect(simplify(rc.above)).toEqual([
        [a.userId, 1, 300],
        [b.userId, 2, 200],
      ]);
      expect(simplify(rc.below)).toEqual([[d.userId, 4, 50]]);
      expect(await ranking(t, c, 'xp', a)).toMatchObject({ rank: 1, amount: 300, above: [] });
      expect((await ranking(t, c, 'xp', b)).rank).toBe(2);
      expect((await ranking(t, c, 'xp', d)).rank).toBe(4);
      expect(await ranking(t, c, 'xp', e)).toMatchObject({ rank: null, amount: 0, balance: 0, totalRanked: 4, above: [], below: [] });
      const one = await t.http().get(`/v1/community/${c.id}/ranking/xp?neighbours=1`).set('Authorization', cc.auth);
      expect(simplify(one.body.above)).toEqual([[b.userId, 2, 200]]);
      expect((await t.http().get(`/v1/community/${c.id}/ranking/nope`).set('Authorization', cc.auth)).body).toMatchObject({ code: 20101 });
      expect((await t.http().get(`/v1/community/${c.id}/ranking/xp`).set('X-Tenant-Id', tenant.id)).status).toBe(401);
    });

    it('gives the same ranks before and after the counters are compacted', async () => {
      const before = await leaderboard(t, c, 'xp');
      expect(await t.app.get(RankingService).compact()).toBeGreaterThanOrEqual(0);
      expect(await leaderboard(t, c, 'xp')).toEqual(before);
      expect((await ranking(t, c, 'xp', cc)).rank).toBe(2);
    });

    it('spending lowers the balance but not the rank; a revoke lowers both; overspending is 409', async () => {
      const admin = adminApi(t, tenant);
      const spend = await admin.post('/v1/admin/resources/deductions', {
        userId: a.userId,
        resourceTypeId: xp.id,
        amount: 250,
        reason: 'purchase',
        idempotencyKey: 'a-spend',
      });
      expect(spend.body).toMatchObject({ delta: -250, earnedDelta: 0, balance: 50, earned: 300 });
      expect(await ranking(t, c, 'xp', a)).toMatchObject({ rank: 1, amount: 300, balance: 50 });

      const over = await admin.post('/v1/admin/resources/deductions', {
        userId: a.userId,
        resourceTypeId: xp.id,
        amount: 51,
        reason: 'purchase',
        idempotencyKey: 'a-over',
      });
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 20103, error: 'insufficient_balance' });
      // The failed key was not consumed, nothing was written.
      const ledger = await admin.get(`/v1/admin/resources/ledger?userId=${a.userId}&resourceTypeId=${xp.id}`);
      expect(ledger.body.total).toBe(2);

      t.clock.advance(1000);
      const revoke = await admin.post('/v1/admin/resources/deductions', {
        userId: b.userId,
        resourceTypeId: xp.id,
        amount: 150,
        reason: 'cheating',
        idempotencyKey: 'b-revoke',
        lowerEarned: true,
      });
      expect(revoke.body).toMatchObject({ delta: -150, earnedDelta: -150, balance: 50, earned: 50 });
      expect(simplify((await leaderboard(t, c, 'xp')).items)).toEqual([
        [a.userId, 1, 300],
        [cc.userId, 2, 200],
        [d.userId, 3, 50],
        [b.userId, 3, 50],
      ]);
      const balances = await admin.get(`/v1/admin/resources/balances?userId=${b.userId}`);
      expect(balances.body).toEqual([{ resourceTypeId: xp.id, slug: 'xp', communityId: c.id, balance: 50, earned: 50 }]);
      expect(await ledgerMismatches(xp.id)).toEqual([]);
    });

    it('serves a leaderboard page from memory for up to BOARD_CACHE_MS while the cache bus listens, but never older than a write through this process', async () => {
      expect(t.app.get(CacheBus).listening).toBe(true);
      const first = await leaderboard(t, c, 'xp', '?limit=2');
      // A change no write announced (a row changed behind the service's back): the cached page
      // stays until it expires, past READ_CACHE_MS while drops of every process reach this one.
      await t.dataSource.query('UPDATE users SET display_name = $1 WHERE id = $2', ['Renamed elsewhere', a.userId]);
      expect(await leaderboard(t, c, 'xp', '?limit=2')).toEqual(first);
      t.clock.advance(t.config.READ_CACHE_MS + 1);
      expect(await leaderboard(t, c, 'xp', '?limit=2')).toEqual(first);
      t.clock.advance(t.config.BOARD_CACHE_MS - t.config.READ_CACHE_MS);
      expect((await leaderboard(t, c, 'xp', '?limit=2')).items[0]).toMatchObject({ userId: a.userId, displayName: 'Renamed elsewhere' });
      // A write through this process: the next read has it, with no wait.
      await grant(t, tenant, d.userId, xp.id, 1000, 'd-climbs').expect(201);
      const after = await leaderboard(t, c, 'xp', '?limit=2');
      expect(simplify(after.items)).toEqual([
        [d.userId, 1, 1050],
        [a.userId, 2, 300],
      ]);
      // A rolled-back write changes nothing, and a failed one leaves the page cached as it was.
      const refused = await adminApi(t, tenant).post('/v1/admin/resources/deductions', {
        userId: b.userId,
        resourceTypeId: xp.id,
        amount: 10 ** 9,
        reason: 'too much',
        idempotencyKey: 'b-too-much',
        lowerEarned: true,
      });
      expect(refused.status).toBe(409);
      expect(await leaderboard(t, c, 'xp', '?limit=2')).toEqual(after);
    });

    it('refuses an idempotency key reused for another operation with 409', async () => {
      const res = await grant(t, tenant, d.userId, xp.id, 999, 'b-second');
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 20104, error: 'idempotency_key_reused' });
    });
  });

  describe('under concurrency', () => {
    it('keeps ledger sums equal to balances and ranks exact with many parallel credits and retries', async () => {
      const c = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, c.id);
      const users = await Promise.all(Array.from({ length: 6 }, () => givenUser(t, tenant)));
      const expected = new Map<string, number>(users.map((u) => [u.userId, 0]));
      const calls: { userId: string; amount: number; key: string }[] = [];
      users.forEach((u, i) => {
        for (let k = 0; k < 12; k++) {
          const amount = ((i * 7 + k * 13) % 40) + 1;
          calls.push({ userId: u.userId, amount, key: `cc-${i}-${k}` });
          expected.set(u.userId, expected.get(u.userId)! + amount);
        }
      });
      // Every call is sent twice at the same time: a retried grant must credit once.
      const results = await Promise.all([...calls, ...calls].map((g) => grant(t, tenant, g.userId, xp.id, g.amount, g.key)));
      expect(results.filter((r) => r.status !== 201).map((r) => [r.status, JSON.stringify(r.body)])).toEqual([]);
      expect(results.filter((r) => r.body.replayed === false)).toHaveLength(calls.length);
      // Parallel spends that together exceed the balance: some succeed, none overdraws.
      const spender = users[0];
      const spends = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          adminApi(t, tenant).post('/v1/admin/resources/deductions', {
            userId: spender.userId,
            resourceTypeId: xp.id,
            amount: 50,
            reason: 'purchase',
            idempotencyKey: `sp-${k}`,
          }),
        ),
      );
      const ok = spends.filter((s) => s.status === 201).length;
      expect(ok).toBe(Math.min(10, Math.floor(expected.get(spender.userId)! / 50)));
      expect(spends.filter((s) => s.status !== 201).every((s) => s.status === 409)).toBe(true);

      expect(await ledgerMismatches(xp.id)).toEqual([]);
      const [{ total }] = await t.dataSource.query('SELECT COUNT(*)::int AS total FROM resource_ledger WHERE resource_type_id = $1', [
        xp.id,
      ]);
      expect(total).toBe(calls.length + ok);

      const scores = [...expected.entries()];
      const rankOf = (s: number) => 1 + scores.filter(([, v]) => v > s).length;
      const lb = await leaderboard(t, c, xp.slug);
      expect(lb.total).toBe(users.length);
      for (const item of lb.items) {
        expect(item.amount).toBe(expected.get(item.userId));
        expect(item.rank).toBe(rankOf(item.amount));
      }
      for (const u of users) expect((await ranking(t, c, xp.slug, u)).rank).toBe(rankOf(expected.get(u.userId)!));
    });
  });

  describe('addressing a leaderboard by community and resource slugs', () => {
    it('follows a renamed community at once in the process that renamed it (the slugs are kept in memory for READ_CACHE_MS)', async () => {
      const c = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, c.id, { slug: 'xp' });
      const u = await givenUser(t, tenant);
      await grant(t, tenant, u.userId, xp.id, 7).expect(201);
      const board = (ref: string) => t.http().get(`/v1/community/${ref}/leaderboard/xp`).set('X-Tenant-Id', tenant.id);
      expect((await board(c.slug)).body.items.map((i: Entry) => i.amount)).toEqual([7]);
      const renamed = `${c.slug}-new`;
      expect((await adminApi(t, tenant).patch(`/v1/admin/communities/${c.id}`, { slug: renamed })).status).toBe(200);
      expect((await board(c.slug)).status).toBe(404);
      expect((await board(renamed)).body.items.map((i: Entry) => i.amount)).toEqual([7]);
      // A resource type created after a miss is found at once (a 404 is never kept).
      expect((await t.http().get(`/v1/community/${renamed}/leaderboard/gold`).set('X-Tenant-Id', tenant.id)).status).toBe(404);
      await givenResourceType(t, tenant, c.id, { slug: 'gold' });
      expect((await t.http().get(`/v1/community/${renamed}/leaderboard/gold`).set('X-Tenant-Id', tenant.id)).status).toBe(200);
    });
  });

  describe('neighbours', () => {
    it('lists the nearest users on each side with their ranks, exactly as the whole board gives them (many ties)', async () => {
      const c = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, c.id, { slug: 'xp' });
      const users = await Promise.all(Array.from({ length: 30 }, () => givenUser(t, tenant)));
      // Scores from a small set, so most have ties; reached in a known order (the tie-break).
      const values = [5, 9, 9, 12, 12, 12, 20, 20, 33, 33, 33, 33, 40, 41, 41, 50, 50, 50, 50, 50, 51, 60, 60, 70, 80, 80, 90, 99, 99, 100];
      for (let i = 0; i < users.length; i++) {
        await grant(t, tenant, users[i].userId, xp.id, values[(i * 7) % values.length], `nb-${i}`).expect(201);
        t.clock.advance(10);
      }
      const board = (await leaderboard(t, c, xp.slug, '?limit=100')).items;
      expect(board).toHaveLength(30);
      const at = new Map(board.map((e, i) => [e.userId, i]));
      for (const k of [0, 1, 3, 10]) {
        for (const u of users) {
          const res = await t.http().get(`/v1/community/${c.id}/ranking/${xp.slug}?neighbours=${k}`).set('Authorization', u.auth);
          expect(res.status).toBe(200);
          const i = at.get(u.userId)!;
          const expected = {
            rank: board[i].rank,
            above: simplify(board.slice(Math.max(0, i - k), i)),
            below: simplify(board.slice(i + 1, i + 1 + k)),
          };
          expect({ k, user: u.userId, rank: res.body.rank, above: simplify(res.body.above), below: simplify(res.body.below) }).toEqual({
            k,
            user: u.userId,
            ...expected,
          });
        }
      }
    });
  });

  describe('on two instances', () => {
    let t2: TestApp;
    beforeAll(async () => {
      t2 = await createTestApp({ DATABASE_URL: urlFor(t.databaseName) });
    });
    afterAll(() => t2.close());

    it('returns the same ranks from both instances, whichever one took the writes', async () => {
      const c = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, c.id);
      const users = await Promise.all(Array.from({ length: 5 }, () => givenUser(t, tenant)));
      await Promise.all(users.map((u, i) => grant(i % 2 ? t : t2, tenant, u.userId, xp.id, (i % 3) * 10 + 10).expect(201)));
      await grant(t2, tenant, users[0].userId, xp.id, 5).expect(201);

      const one = await leaderboard(t, c, xp.slug);
      const two = await leaderboard(t2, c, xp.slug);
      expect(two).toEqual(one);
      expect(simplify(one.items).map(([, r, amount]) => [r, amount])).toEqual([
        [1, 30],
        [2, 20],
        [2, 20],
        [4, 15],
        [5, 10],
      ]);
      for (const u of users) expect(await ranking(t2, c, xp.slug, u)).toEqual(await ranking(t, c, xp.slug, u));
    });
  });
});
