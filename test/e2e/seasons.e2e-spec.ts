import { eventValidators } from '../helpers/event-schemas.js';
import type { PublicEventType } from '../../src/integrations/event-catalog.js';
import { useTestApp } from '../helpers/test-app.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { SeasonCloser } from '../../src/seasons/season-closer.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

interface Entry {
  rank: number;
  handle: string;
  amount: number;
}

/** Seasons on a fake clock: the worker is driven by hand (`SeasonCloser.runOnce`). */
describe('seasons: schedules, season boards, frozen standings and rank rewards', () => {
  const t = useTestApp({ SEASON_WORKER_ENABLED: 'false', READ_CACHE_MS: '0' });
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string; slug: string };
  let gems: { id: string; slug: string };
  let prize: { id: string };
  let flag: { id: string };
  let users: Record<'ann' | 'bob' | 'cat' | 'dan', TestUser>;
  let closer: SeasonCloser;

  beforeAll(async () => {
    closer = t.app.get(SeasonCloser);
    tenant = await t.givenTenant();
    await subscribeToEveryEvent(t.dataSource, tenant.id); // the outbox writes only what a sink takes
    c = await givenCommunity(t, tenant);
    xp = await givenResourceType(t, tenant, c.id, { slug: 'xp' });
    gems = await givenResourceType(t, tenant, c.id, { slug: 'gems', name: 'Gems' });
    prize = (await adminApi(t, tenant).post('/v1/admin/prizes', { name: 'Weekly cup', kind: 'achievement', communityId: c.id }).expect(201))
      .body;
    const slot = (await adminApi(t, tenant).post('/v1/admin/inventory/slots', { communityId: c.id, key: 'mast', name: 'Mast' }).expect(201))
      .body;
    // One flag for three winners: two of the grants are refused (no supply left), recorded, and the rest goes on.
    flag = (
      await adminApi(t, tenant)
        .post('/v1/admin/inventory/items', { communityId: c.id, slotId: slot.id, name: 'Pirate flag', supply: 1 })
        .expect(201)
    ).body;
    users = {
      ann: await givenUser(t, tenant, `ann_${tenant.id.slice(0, 6)}`),
      bob: await givenUser(t, tenant, `bob_${tenant.id.slice(0, 6)}`),
      cat: await givenUser(t, tenant, `cat_${tenant.id.slice(0, 6)}`),
      dan: await givenUser(t, tenant, `dan_${tenant.id.slice(0, 6)}`),
    };
    // Wednesday 2026-12-02 10:00 UTC.
    t.clock.set(new Date('2026-12-02T10:00:00Z'));
  });

  const board = async (slug: string, query = '') => {
    const res = await t.http().get(`/v1/community/${c.slug}/leaderboard/${slug}${query}`).set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(200);
    return res.body as { items: Entry[]; total: number; hasNextPage: boolean };
  };
  const rows = (b: { items: Entry[] }) => b.items.map((e) => [e.handle.slice(0, 3), e.rank, e.amount]);
  const rankingOf = async (u: TestUser, query = '') =>
    (await t.http().get(`/v1/community/${c.id}/ranking/xp${query}`).set('Authorization', u.auth).expect(200)).body;
  const seasons = async (query = '') =>
    (await t.http().get(`/v1/community/${c.slug}/seasons${query}`).set('X-Tenant-Id', tenant.id).expect(200)).body as {
      items: { id: string; number: number; name: string; status: string; startsAt: string; endsAt: string; ranked: number | null }[];
      total: number;
    };
  const gemsOf = async (u: TestUser) =>
    Number(
      (
        await t.dataSource.query('SELECT balance FROM resource_balances WHERE user_id = $1 AND resource_type_id = $2', [u.userId, gems.id])
      )[0]?.balance ?? 0,
    );

  let first: string;

  it('opens the first season of a weekly schedule now, until the next Monday in its time zone; what was earned before does not count', async () => {
    await grant(t, tenant, users.ann.userId, xp.id, 100).expect(201);
    const res = await adminApi(t, tenant).post('/v1/admin/season-schedules', {
      communityId: c.slug,
      resourceTypeId: 'xp',
      name: 'Weekly XP',
      cron: '0 0 * * 1',
      timeZone: 'Europe/Berlin',
      rewards: [
        { fromRank: 1, toRank: 1, type: 'resource', refId: gems.id, amount: 500 },
        { fromRank: 2, toRank: 3, type: 'resource', refId: gems.id, amount: 10 },
        { topPercent: 50, type: 'prize', refId: prize.id },
        { fromRank: 1, toRank: 3, type: 'item', refId: flag.id },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ active: true, nextStartsAt: '2026-12-06T23:00:00.000Z' });
    const list = await seasons();
    expect(list.items).toEqual([
      expect.objectContaining({ number: 1, name: 'Weekly XP #1', status: 'upcoming', endsAt: '2026-12-06T23:00:00.000Z' }),
    ]);
    first = list.items[0].id;

    t.clock.advance(3000);
    await grant(t, tenant, users.bob.userId, xp.id, 50).expect(201);
    t.clock.advance(1000);
    await grant(t, tenant, users.cat.userId, xp.id, 50).expect(201);
    await grant(t, tenant, users.ann.userId, xp.id, 30).expect(201);

    // The season counts what was earned inside its window: Ann's 100 from before is not in it.
    expect(rows(await board('xp', '?season=current'))).toEqual([
      ['bob', 1, 50],
      ['cat', 1, 50],
      ['ann', 3, 30],
    ]);
    expect(rows(await board('xp', `?season=${first}`))).toEqual(rows(await board('xp', '?season=current')));
    // Without `season`, the all-time board as before.
    expect(rows(await board('xp'))).toEqual([
      ['ann', 1, 130],
      ['bob', 2, 50],
      ['cat', 2, 50],
    ]);
    const mine = await rankingOf(users.ann, '?season=current&neighbours=1');
    expect(mine).toMatchObject({ rank: 3, amount: 30, balance: 130, totalRanked: 3 });
    expect(mine.above.map((e: Entry) => e.handle.slice(0, 3))).toEqual(['cat']);
    expect(await rankingOf(users.dan, '?season=current')).toMatchObject({ rank: null, amount: 0, totalRanked: 3 });
  });

  it('opens the next season before it starts, and closes the ended one after the grace: frozen standings, ties to who reached the score first', async () => {
    expect(await closer.runOnce()).toBe(0);
    expect((await seasons('?status=upcoming')).items).toEqual([
      expect.objectContaining({ number: 2, startsAt: '2026-12-06T23:00:00.000Z', endsAt: '2026-12-13T23:00:00.000Z' }),
    ]);

    t.clock.set(new Date('2026-12-06T23:00:01Z'));
    await grant(t, tenant, users.dan.userId, xp.id, 7).expect(201);
    // Ended but within the grace: not closed yet; the board still answers.
    expect(await closer.runOnce()).toBe(0);
    expect((await seasons('?status=closing')).items.map((s) => s.number)).toEqual([1]);

    t.clock.advance(15_000);
    expect(await closer.runOnce()).toBe(1);
    const closed = (await seasons('?status=closed')).items;
    expect(closed).toEqual([expect.objectContaining({ id: first, status: 'closed', ranked: 3 })]);
    // Bob and Cat both have 50: Bob reached it first, so he finished first.
    expect(rows(await board('xp', `?season=${first}`))).toEqual([
      ['bob', 1, 50],
      ['cat', 2, 50],
      ['ann', 3, 30],
    ]);
    expect(await rankingOf(users.cat, `?season=${first}`)).toMatchObject({ rank: 2, amount: 50, totalRanked: 3 });
    expect(rows(await board('xp', '?season=current'))).toEqual([['dan', 1, 7]]);
    // The next season of the schedule is opened as soon as the running one started.
    expect((await seasons('?status=upcoming')).items.map((s) => s.number)).toEqual([3]);
  });

  it('pays each rank reward once, with a notification, and a second close pays nothing more', async () => {
    const seasonEvents = async () => {
      const rows: { type: string; payload: Record<string, unknown> }[] = await t.dataSource.query(
        `SELECT type, payload FROM outbox_events WHERE tenant_id = $1 AND type LIKE 'season.%' AND payload->>'seasonId' = $2 ORDER BY type, payload->>'rank'`,
        [tenant.id, first],
      );
      const { ajv, payload } = eventValidators();
      for (const r of rows)
        expect({ type: r.type, problems: payload[r.type as PublicEventType](r.payload) ? null : ajv.errorsText() }).toEqual({
          type: r.type,
          problems: null,
        });
      return rows;
    };
    // Published with the changes they report: the season's creation, each winner's rewards, the close.
    expect((await seasonEvents()).map((r) => [r.type, r.payload.userId ?? null, r.payload.rank ?? null])).toEqual([
      ['season.closed', null, null],
      ['season.created', null, null],
      ['season.rewarded', users.bob.userId, 1],
      ['season.rewarded', users.cat.userId, 2],
      ['season.rewarded', users.ann.userId, 3],
    ]);
    const [bobsEvent] = (await seasonEvents()).filter((r) => r.payload.userId === users.bob.userId);
    expect(bobsEvent.payload).toMatchObject({ rank: 1, score: 50 });
    expect((bobsEvent.payload.rewards as { type: string }[]).map((r) => r.type)).toEqual(['resource', 'prize', 'item']);
    expect([await gemsOf(users.bob), await gemsOf(users.cat), await gemsOf(users.ann), await gemsOf(users.dan)]).toEqual([500, 10, 10, 0]);
    const owners = await t.dataSource.query('SELECT user_id FROM prize_awards WHERE prize_id = $1 ORDER BY user_id', [prize.id]);
    expect(owners.map((o: { user_id: string }) => o.user_id)).toEqual([users.bob.userId, users.cat.userId].sort());
    const notes = await t.http().get(`/v1/user/notifications?containerId=${c.slug}`).set('Authorization', users.bob.auth).expect(200);
    const season = notes.body.items.find((n: { type: string }) => n.type === 'season_reward');
    expect(season).toMatchObject({ title: 'You finished #1 in Weekly XP #1', data: { rank: 1, score: 50 } });
    expect(season.data.rewards.map((r: { type: string }) => r.type)).toEqual(['resource', 'prize', 'item']);

    // As if a crashed instance had left the season half closed: the payouts make it a no-op.
    await t.dataSource.query('UPDATE seasons SET closed_at = NULL, paid_through = 0, lease_until = NULL WHERE id = $1', [first]);
    expect(await closer.runOnce()).toBe(1);
    expect([await gemsOf(users.bob), await gemsOf(users.cat), await gemsOf(users.ann)]).toEqual([500, 10, 10]);
    const [{ n }] = await t.dataSource.query(
      `SELECT COUNT(*)::int AS n FROM resource_ledger WHERE reason = 'season_reward' AND reference = $1`,
      [first],
    );
    expect(n).toBe(3);
    const admin = await adminApi(t, tenant).get(`/v1/admin/seasons/${first}`).expect(200);
    expect(admin.body).toMatchObject({ rewardsPaid: 6, rewardsFailed: 2, paidThrough: 3 });
    const flags = await t.dataSource.query('SELECT user_id FROM item_grants WHERE item_id = $1', [flag.id]);
    expect(flags).toHaveLength(1);
    // Nobody was paid again, so no winner's event was written again.
    expect((await seasonEvents()).filter((r) => r.type === 'season.rewarded')).toHaveLength(3);
  });

  it('counts only the chosen reasons, and refuses a window that starts in the past', async () => {
    const now = t.clock.now().getTime();
    const past = await adminApi(t, tenant).post('/v1/admin/seasons', {
      communityId: c.id,
      resourceTypeId: xp.id,
      name: 'Late',
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ message: 'generic_client_error', error: 'invalid_season' });
    // A reward in a scoped type (a quest event's score) would move that event's standings.
    const score = await adminApi(t, tenant)
      .post('/v1/admin/resources/types', { communityId: c.id, slug: 'season-score', name: 'Event score', kind: 'scoped' })
      .expect(201);
    const scoped = await adminApi(t, tenant).post('/v1/admin/seasons', {
      communityId: c.id,
      resourceTypeId: xp.id,
      name: 'Scored',
      endsAt: new Date(now + 3_600_000).toISOString(),
      rewards: [{ fromRank: 1, toRank: 3, type: 'resource', refId: score.body.id, amount: 5 }],
    });
    expect(scoped.body).toMatchObject({ message: 'generic_client_error', error: 'invalid_season' });
    expect(scoped.body.detail).toContain('scoped');
    const quests = await adminApi(t, tenant).post('/v1/admin/seasons', {
      communityId: c.id,
      resourceTypeId: xp.id,
      name: 'Quest sprint',
      reasons: ['quest_completion'],
      endsAt: new Date(now + 3_600_000).toISOString(),
    });
    expect(quests.status).toBe(201);
    t.clock.advance(3000);
    await grant(t, tenant, users.bob.userId, xp.id, 40).expect(201);
    expect((await board('xp', `?season=${quests.body.id}`)).total).toBe(0);
    // Both are live now; `current` is the one that ends first (the sprint), the weekly one counted the grant.
    expect((await board('xp', '?season=current')).total).toBe(0);
    const weekly = (await seasons('?status=live')).items.find((s) => s.number === 2)!;
    expect(rows(await board('xp', `?season=${weekly.id}`))).toEqual([
      ['bob', 1, 40],
      ['dan', 2, 7],
    ]);
  });

  it('answers 404 for an unknown season and 400 for a malformed one', async () => {
    const res = await t
      .http()
      .get(`/v1/community/${c.slug}/leaderboard/xp?season=0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10`)
      .set('X-Tenant-Id', tenant.id);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'season_not_found' });
    expect((await t.http().get(`/v1/community/${c.slug}/leaderboard/xp?season=last`).set('X-Tenant-Id', tenant.id)).status).toBe(400);
    expect(
      (await t.http().get(`/v1/community/${c.slug}/leaderboard/${gems.slug}?season=${first}`).set('X-Tenant-Id', tenant.id)).status,
    ).toBe(404);
  });
});
