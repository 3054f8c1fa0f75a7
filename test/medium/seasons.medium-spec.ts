import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { PrizesService } from '../../src/prizes/prizes.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { SeasonBoardsService } from '../../src/resources/season-boards.service.js';
import type { Season, SeasonReward } from '../../src/seasons/entities/season.entity.js';
import { SeasonCloser } from '../../src/seasons/season-closer.js';
import { SeasonsModule } from '../../src/seasons/seasons.module.js';
import { SeasonsRepository } from '../../src/seasons/seasons.repository.js';
import { SeasonsService } from '../../src/seasons/seasons.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { ledgerInvariants } from '../helpers/ledger-invariants.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenResourceType, givenTenant, numbers, uniqueName } from './fixtures.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { statementsOfFirstConnection } from '../helpers/pg-statements.js';

const BATCH = 100;
/** Final places frozen per statement here: seasons of a few hundred players freeze in several chunks. */
const CHUNK = 100;
const GEMS = 7;
const BONUS = 3;

/**
 * Paying a season's rank rewards (SeasonCloser) on the real database: batches of winners with
 * bulk statements, each winner paid exactly once however often or however concurrently a batch
 * runs, the ledger's invariants, the outbox events and notifications of the per-winner path.
 */
describe('SeasonCloser (medium: SeasonsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let closer: SeasonCloser;
  let tenantId: string;
  let communityId: string;

  beforeAll(async () => {
    t = await createModuleTest({
      imports: [SeasonsModule, IntegrationsModule, TenantsModule],
      env: { SEASON_WORKER_ENABLED: 'false', SEASON_PAYOUT_BATCH: String(BATCH), SEASON_FREEZE_CHUNK: String(CHUNK), DB_POOL_SIZE: '8' },
    });
    closer = t.get(SeasonCloser);
    tenantId = await givenTenant(t);
    await subscribeToEveryEvent(t.dataSource, tenantId); // the outbox writes only what a sink takes
    communityId = await givenCommunity(t, tenantId);
  });
  afterAll(() => t?.close());

  /** `n` players of the tenant (bulk SQL: what is under test is the close, not registration). */
  const givenPlayers = async (n: number): Promise<string[]> => {
    const prefix = uniqueName('p').replace('-', '_');
    const rows: { id: string }[] = await t.dataSource.query(
      `INSERT INTO users (tenant_id, handle, handle_normalized, display_name)
       SELECT $1, $2 || '_' || g, $2 || '_' || g, 'Player ' || g FROM generate_series(1, $3::int) g RETURNING id`,
      [tenantId, prefix, n],
    );
    return rows.map((r) => r.id);
  };

  /**
   * An ended season of a new resource type in which `players[i]` finished at place i + 1 (season
   * scores written directly), frozen; the clock is past its end.
   */
  const givenEndedSeason = async (players: string[], rewards: SeasonReward[]): Promise<Season> => {
    const xp = await givenResourceType(t, tenantId, communityId);
    const startsAt = new Date(t.clock.now().getTime() + 5_000);
    const created = await t.get(SeasonsService).createSeason(tenantId, {
      communityId,
      resourceTypeId: xp,
      name: uniqueName('Cup'),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60_000),
      rewards,
    });
    await t.dataSource.query(
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT $1, u, $2, 1000000 - i, $3 FROM unnest($4::uuid[]) WITH ORDINALITY AS x(u, i)`,
      [created.id, tenantId, startsAt, players],
    );
    t.clock.advance(120_000);
    const season = (await t.get(SeasonsRepository).findById(tenantId, created.id))!;
    return (await closer.freeze(season))!;
  };

  /** Per player: season_reward ledger entries, payouts paid and failed, season_reward notifications. */
  const perPlayer = (season: Season, players: string[]) =>
    t.dataSource.query<{ userId: string; entries: number; paid: number; failed: number; notes: number }[]>(
      `SELECT u AS "userId",
              (SELECT count(*)::int FROM resource_ledger l WHERE l.user_id = u AND l.reason = 'season_reward' AND l.reference = $1::text) AS entries,
              (SELECT count(*)::int FROM season_payouts p WHERE p.user_id = u AND p.season_id = $1::uuid AND p.status = 'paid') AS paid,
              (SELECT count(*)::int FROM season_payouts p WHERE p.user_id = u AND p.season_id = $1::uuid AND p.status = 'failed') AS failed,
              (SELECT count(*)::int FROM notifications n WHERE n.user_id = u AND n.type = 'season_reward' AND n.data->>'seasonId' = $1::text) AS notes
       FROM unnest($2::uuid[]) AS u`,
      [season.id, players],
    );

  /** The `resource.credited` events of the season's rewards whose amount or balance differ from the player's credit and balance. */
  const creditEventsOff = (season: Season) =>
    t.dataSource.query(
      `SELECT e.payload FROM outbox_events e
       LEFT JOIN resource_balances b ON b.user_id = (e.payload->>'userId')::uuid AND b.resource_type_id = (e.payload->>'resourceTypeId')::uuid
       WHERE e.tenant_id = $1 AND e.type = 'resource.credited' AND e.payload->>'reference' = $2::text
         AND (b.balance IS DISTINCT FROM (e.payload->>'balance')::bigint OR e.payload->>'kind' <> 'global' OR e.payload->>'reason' <> 'season_reward')`,
      [tenantId, season.id],
    );

  const creditEvents = async (season: Season) =>
    (
      await numbers(
        t.dataSource,
        `SELECT count(*) AS n FROM outbox_events WHERE tenant_id = $1 AND type = 'resource.credited' AND payload->>'reference' = $2::text`,
        [tenantId, season.id],
      )
    ).n;

  const invariants = () => ledgerInvariants((sql) => t.dataSource.query(sql));

  it('freezes in chunks the standings one ordering gives (ties across chunk ends), resuming after a partial freeze', async () => {
    const players = await givenPlayers(350);
    const xp = await givenResourceType(t, tenantId, communityId);
    const startsAt = new Date(t.clock.now().getTime() + 5_000);
    const created = await t.get(SeasonsService).createSeason(tenantId, {
      communityId,
      resourceTypeId: xp,
      name: uniqueName('Ties'),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60_000),
      rewards: [],
    });
    // Six scores (one of them 0: not ranked), each held by 58 or 59 players, reached at three
    // moments: most places are decided by who reached the score first, then by user id, and the
    // chunks end inside groups of equal scores and moments.
    await t.dataSource.query(
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT $1, u, $2, (i % 6) * 10, $3::timestamptz + (i % 3) * interval '1 second' FROM unnest($4::uuid[]) WITH ORDINALITY AS x(u, i)`,
      [created.id, tenantId, startsAt, players],
    );
    const expected: { user_id: string; score: string; reached_at: Date }[] = await t.dataSource.query(
      'SELECT user_id, score, reached_at FROM season_scores WHERE season_id = $1 AND score > 0 ORDER BY score DESC, reached_at, user_id',
      [created.id],
    );
    expect(expected.length).toBe(292);
    for (const end of [CHUNK, 2 * CHUNK]) {
      const [last, next] = [expected[end - 1], expected[end]];
      expect([next.score, next.reached_at]).toEqual([last.score, last.reached_at]);
    }
    t.clock.advance(120_000);
    // An instance froze two chunks, then died.
    const boards = t.get(SeasonBoardsService);
    expect(await boards.freezeChunk(created.id, 0, CHUNK)).toBe(CHUNK);
    expect(await boards.freezeChunk(created.id, CHUNK, CHUNK)).toBe(CHUNK);
    const season = (await t.get(SeasonsRepository).findById(tenantId, created.id))!;
    expect(season.frozenAt).toBeNull();
    const frozen = (await closer.freeze(season))!;
    expect(frozen.ranked).toBe(292);
    // Again: nothing changes.
    expect((await closer.freeze(frozen))!.ranked).toBe(292);
    const standings: { position: number; user_id: string }[] = await t.dataSource.query(
      'SELECT position, user_id FROM season_standings WHERE season_id = $1 ORDER BY position',
      [created.id],
    );
    expect(standings).toEqual(expected.map((r, i) => ({ position: i + 1, user_id: r.user_id })));
    // The worker closes it (nothing to pay) and leaves the standings as they are.
    expect(await closer.runOnce()).toBe(1);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM season_standings WHERE season_id = $1', [created.id])).toEqual([
      { n: 292 },
    ]);
  });

  it('pays a batch in a fixed number of statements, and running it twice at once or again pays each winner once', async () => {
    const players = await givenPlayers(450);
    const gems = await givenResourceType(t, tenantId, communityId);
    const shards = await givenResourceType(t, tenantId, communityId);
    const prize = await t.get(PrizesService).create(tenantId, { communityId, name: uniqueName('Cup'), kind: 'achievement' });
    const season = await givenEndedSeason(players, [
      { fromRank: 1, toRank: 450, type: 'resource', refId: gems, amount: GEMS },
      { topPercent: 10, type: 'resource', refId: shards, amount: BONUS },
      { fromRank: 1, toRank: 3, type: 'prize', refId: prize.id, amount: 1 },
    ]);
    expect(season.ranked).toBe(450);

    // The first batch, twice at once (two transactions, as two instances): one pays, the other
    // waits on the payout keys, then finds them taken.
    expect(await Promise.all([closer.payPlaces(season, 0, BATCH), closer.payPlaces(season, 0, BATCH)])).toEqual([true, true]);
    const first = await perPlayer(season, players.slice(0, BATCH));
    expect(first.filter((p) => p.entries !== (players.indexOf(p.userId) < 45 ? 2 : 1) || p.notes !== 1 || p.failed !== 0)).toEqual([]);
    // And once more, in turn: nothing more.
    await closer.payPlaces(season, 0, BATCH);
    expect(await perPlayer(season, players.slice(0, BATCH))).toEqual(first);

    // The next batch alone, counting its statements: resources only, so a fixed few whatever its size.
    // The batch's own connection (after its commit, the webhook worker is woken on another).
    const sql = await statementsOfFirstConnection(t.dataSource, () => closer.payPlaces(season, BATCH, 2 * BATCH));
    expect(sql[0]).toBe('START TRANSACTION');
    expect(sql[sql.length - 1]).toBe('COMMIT');
    // BEGIN, places, payouts, paid-through, notifications, the credits of the one resource type of
    // these places (savepoint, targets, entries, balances, rank deltas, release), outbox, COMMIT.
    expect(sql).toHaveLength(13);
    expect(sql.filter((s) => s.startsWith('INSERT INTO resource_balances'))).toHaveLength(1);
    expect(sql.filter((s) => s.includes('INSERT INTO outbox_events'))).toHaveLength(1);

    // The worker pays the rest and closes it; a second close (as after a crash) pays nothing more.
    t.clock.advance(15_000);
    expect(await closer.runOnce()).toBe(1);
    await t.dataSource.query('UPDATE seasons SET closed_at = NULL, paid_through = 0, lease_until = NULL WHERE id = $1', [season.id]);
    expect(await closer.runOnce()).toBe(1);

    const all = await perPlayer(season, players);
    const expected = (i: number) => ({ entries: i < 45 ? 2 : 1, paid: i < 3 ? 3 : i < 45 ? 2 : 1, failed: 0, notes: 1 });
    expect(all.map((p, i) => [i, p.entries, p.paid, p.failed, p.notes])).toEqual(
      players.map((_, i) => [i, expected(i).entries, expected(i).paid, 0, 1]),
    );
    expect(
      await numbers(
        t.dataSource,
        `SELECT (SELECT coalesce(sum(balance), 0) FROM resource_balances WHERE resource_type_id = $1) AS gems,
                (SELECT coalesce(sum(balance), 0) FROM resource_balances WHERE resource_type_id = $2) AS shards,
                (SELECT count(*) FROM prize_awards WHERE prize_id = $3) AS prizes`,
        [gems, shards, prize.id],
      ),
    ).toEqual({ gems: 450 * GEMS, shards: 45 * BONUS, prizes: 3 });
    // The outbox events of the per-winner path: one resource.credited per credit, with the balance after it.
    expect(await creditEvents(season)).toBe(450 + 45);
    expect(await creditEventsOff(season)).toEqual([]);
    expect(
      (await numbers(t.dataSource, `SELECT count(*) AS n FROM outbox_events WHERE tenant_id = $1 AND type = 'prize.awarded'`, [tenantId]))
        .n,
    ).toBe(3);
    // The winner's notification lists every reward, in reward order.
    const [note] = await t.dataSource.query(`SELECT title, data FROM notifications WHERE user_id = $1 AND type = 'season_reward'`, [
      players[0],
    ]);
    expect(note.title).toBe(`You finished #1 in ${season.name}`);
    expect(note.data.rewards.map((r: { type: string; status: string }) => `${r.type}:${r.status}`)).toEqual([
      'resource:paid',
      'resource:paid',
      'prize:paid',
    ]);
    expect(await invariants()).toMatchObject({ mismatched: 0, negative: 0 });
    // The rank counters count every winner once (all 450 hold 7 gems: level 0, bucket 7).
    expect(
      await numbers(
        t.dataSource,
        `SELECT (SELECT coalesce(sum(count), 0) FROM resource_rank_buckets WHERE resource_type_id = $1 AND level = 0 AND bucket = $2)
              + (SELECT coalesce(sum(delta), 0) FROM resource_rank_bucket_deltas WHERE resource_type_id = $1 AND level = 0 AND bucket = $2) AS ranked`,
        [gems, GEMS],
      ),
    ).toEqual({ ranked: 450 });
  });

  it('pays a batch refused as a whole winner by winner: the refused credit is recorded failed, every other winner paid once', async () => {
    const players = await givenPlayers(120);
    const gems = await givenResourceType(t, tenantId, communityId);
    const season = await givenEndedSeason(players, [{ fromRank: 1, toRank: 120, type: 'resource', refId: gems, amount: GEMS }]);
    // The key of the 50th place's reward was used by another credit (another amount) before.
    const victim = players[49];
    await t.get(LedgerService).credit(t.dataSource.manager, {
      tenantId,
      userId: victim,
      resourceTypeId: gems,
      amount: 1,
      reason: 'grant',
      idempotencyKey: `season:${season.id}:0:${victim}`,
    });

    t.clock.advance(15_000);
    expect(await closer.runOnce()).toBe(1);
    const all = await perPlayer(season, players);
    expect(all.filter((p) => p.userId !== victim && (p.entries !== 1 || p.paid !== 1 || p.notes !== 1))).toEqual([]);
    expect(all.find((p) => p.userId === victim)).toMatchObject({ entries: 0, paid: 0, failed: 1, notes: 1 });
    const [failed] = await t.dataSource.query('SELECT error FROM season_payouts WHERE season_id = $1 AND status = $2', [
      season.id,
      'failed',
    ]);
    expect(failed.error).toContain('was used for another operation');
    // Both paths wrote the same events: one per credit, with the balance after it.
    expect(await creditEvents(season)).toBe(119);
    expect(await creditEventsOff(season)).toEqual([]);
    expect(await invariants()).toMatchObject({ mismatched: 0, negative: 0 });
  });
});
