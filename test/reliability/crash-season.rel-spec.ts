import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster } from '../helpers/processes.js';
import { asAdmin, expectOk, givenCommunity, givenResourceType, grant, pool, register, report, scale, type User } from './support.js';

const WINNERS = scale(300, 1000);
const REWARD = 7;

/**
 * Part 3 (seasons): two instances race to close an ended season (their season workers poll every
 * 100 ms); the one that holds the close is killed with SIGKILL in the middle of paying the rank
 * rewards. The other takes the close over once the lease expires, and every winner ends up paid
 * exactly once: one ledger entry, one payout row, one notification each.
 */
describe(`crash: kill -9 while a season's rewards are paid (${WINNERS} winners)`, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster(createTestDatabase, 2, {
      SEASON_WORKER_ENABLED: 'true',
      SEASON_POLL_INTERVAL_MS: '100',
      SEASON_CLOSE_LEASE_MS: '2000',
      // Several chunks of the freeze and batches for the winners, so the kill lands between two of
      // them (or inside one).
      SEASON_FREEZE_CHUNK: '100',
      SEASON_PAYOUT_BATCH: '40',
    });
  }, 120_000);
  afterAll(() => c?.close());

  it('resumes the close after the crash and pays each winner once', async () => {
    const [a, b] = c.apps;
    const tenant = c.tenant;
    const community = await givenCommunity(a, tenant);
    const xp = await givenResourceType(a, tenant, community.id);
    const gems = await givenResourceType(a, tenant, community.id);
    const players: User[] = await pool(8, WINNERS, (i) => register(i % 2 ? a : b, tenant));

    const startsAt = Date.now() + 3_000;
    const endsAt = startsAt + scale(10_000, 20_000);
    const season = expectOk(
      await a.call('POST', '/v1/admin/seasons', {
        headers: asAdmin(tenant),
        body: {
          communityId: community.id,
          resourceTypeId: xp.id,
          name: 'Crash cup',
          startsAt: new Date(startsAt).toISOString(),
          endsAt: new Date(endsAt).toISOString(),
          rewards: [{ fromRank: 1, toRank: WINNERS, type: 'resource', refId: gems.id, amount: REWARD }],
        },
      }),
      201,
      'create season',
    ).body as { id: string };
    await new Promise((r) => setTimeout(r, startsAt - Date.now() + 200));
    // Distinct scores through both instances, inside the window.
    await pool(8, WINNERS, (i) => grant(i % 2 ? a : b, tenant, players[i].userId, xp.id, i + 1).then((r) => expectOk(r, 201, 'grant')));
    if (Date.now() >= endsAt) throw new Error('the grants took longer than the season: raise its length');

    // Wait for the close to be under way (frozen, some rewards paid), then kill the instance holding it.
    let victim: AppInstance | undefined;
    let paidAtKill = 0;
    const deadline = Date.now() + 60_000;
    while (!victim && Date.now() < deadline) {
      const [s] = (
        await c.sql.query<{ lease_owner: string | null; paid_through: number; closed_at: Date | null }>(
          'SELECT lease_owner, paid_through, closed_at FROM seasons WHERE id = $1',
          [season.id],
        )
      ).rows;
      if (s.closed_at) throw new Error('the season closed before the test could kill the instance closing it');
      if (s.lease_owner && s.paid_through > 0) {
        const pid = Number(s.lease_owner.split(':')[1]);
        victim = c.apps.find((app) => app.pid() === pid);
        if (!victim) throw new Error(`no instance has pid ${pid}`);
        await victim.kill('SIGKILL');
        paidAtKill = s.paid_through;
      } else await new Promise((r) => setTimeout(r, 5));
    }
    expect(victim).toBeDefined();
    expect(paidAtKill).toBeLessThan(WINNERS);
    const t0 = performance.now();
    await victim!.restart();

    let closed = false;
    while (!closed && Date.now() < deadline + 60_000) {
      const [s] = (await c.sql.query<{ closed_at: Date | null }>('SELECT closed_at FROM seasons WHERE id = $1', [season.id])).rows;
      closed = s.closed_at !== null;
      if (!closed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(closed).toBe(true);
    const resumedMs = Math.round(performance.now() - t0);

    const perUser = (
      await c.sql.query<{ entries: number; gems: string; payouts: number; notes: number }>(
        `SELECT (SELECT COUNT(*)::int FROM resource_ledger l WHERE l.user_id = u.id AND l.reason = 'season_reward' AND l.reference = $1::text) AS entries,
                (SELECT COALESCE(SUM(balance), 0)::text FROM resource_balances rb WHERE rb.user_id = u.id AND rb.resource_type_id = $2) AS gems,
                (SELECT COUNT(*)::int FROM season_payouts p WHERE p.user_id = u.id AND p.season_id = $1::uuid AND p.status = 'paid') AS payouts,
                (SELECT COUNT(*)::int FROM notifications n WHERE n.user_id = u.id AND n.type = 'season_reward') AS notes
         FROM users u WHERE u.id = ANY($3::uuid[])`,
        [season.id, gems.id, players.map((p) => p.userId)],
      )
    ).rows;
    expect(perUser).toHaveLength(WINNERS);
    expect(perUser.filter((r) => r.entries !== 1 || Number(r.gems) !== REWARD || r.payouts !== 1 || r.notes !== 1)).toEqual([]);
    const standings = await c.sql.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM season_standings WHERE season_id = $1', [season.id]);
    expect(standings.rows[0].n).toBe(WINNERS);
    report('season close crash', { winners: WINNERS, paidBeforeKill: paidAtKill, closedAfterRestartMs: resumedMs });
  });
});
