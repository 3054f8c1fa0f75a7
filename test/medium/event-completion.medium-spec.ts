import { EventCompletionInSteps1795830000000 } from '../../migrations/1795830000000-EventCompletionInSteps.js';
import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { OUTBOX_BATCH } from '../../src/integrations/outbox.repository.js';
import { NOTIFY_BATCH } from '../../src/notifications/notifications.service.js';
import { ParticipationModule } from '../../src/participation/participation.module.js';
import { DomainEvents } from '../../src/common/events/domain-events.js';
import { ParticipationErrors } from '../../src/participation/participation.errors.js';
import { ParticipationService } from '../../src/participation/participation.service.js';
import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import { QuestEventErrors } from '../../src/quest-events/quest-events.errors.js';
import { QuestEventsRepository } from '../../src/quest-events/quest-events.repository.js';
import { QuestEventsService } from '../../src/quest-events/quest-events.service.js';
import { RewardsService } from '../../src/quest-events/rewards.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { onStatements, statementsOfFirstConnection } from '../helpers/pg-statements.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenEventWithPlayers, givenScores, givenTenant, inRolledBackTransaction, numbers } from './fixtures.js';

const HOUR = 3_600_000;
/** More participants than one statement of notifications or outbox events takes. */
const PARTICIPANTS = 2_500;
/** Of them, the ones with a score: ranked, and allocated tickets. */
const SCORED = 1_200;
/** Participants per transaction of the completion (QUEST_EVENT_COMPLETION_BATCH). */
const BATCH = 1_000;

/**
 * Completing and cancelling a large quest event on the real database: the completion works through
 * the participants in batches, each in a transaction of its own, resumes after an interruption and
 * does nothing twice; every participant is told, in statements of a batch each (not a round trip
 * per participant), and the outbox's events of the allocations are written likewise.
 */
describe('EventCompletionService and cancel at scale (medium: ParticipationModule, IntegrationsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let tenantId: string;
  let communityId: string;

  beforeAll(async () => {
    t = await createModuleTest({
      imports: [ParticipationModule, IntegrationsModule, TenantsModule],
      env: { QUEST_EVENT_WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false', QUEST_EVENT_COMPLETION_BATCH: String(BATCH) },
    });
    tenantId = await givenTenant(t);
    await subscribeToEveryEvent(t.dataSource, tenantId);
    communityId = await givenCommunity(t, tenantId);
  });
  afterAll(() => t?.close());
  afterEach(() => t.clock.reset());

  const givenEvent = (n: number) => givenEventWithPlayers(t, tenantId, communityId, n);

  /** The notifications of `type` about the event, per user: how many, and the tickets they name. */
  const notified = (type: string, eventId: string) =>
    t.dataSource.query<{ user_id: string; n: number; tickets: number | null }[]>(
      `SELECT user_id, count(*)::int AS n, max((data->>'tickets')::int) AS tickets FROM notifications
        WHERE tenant_id = $1 AND type = $2 AND data->>'eventId' = $3 GROUP BY user_id`,
      [tenantId, type, eventId],
    );

  /** A published event with `n` participants, SCORED of them scored (1..50, so ties), a 2-ticket reward, and the clock past its end. */
  const givenEndedEvent = async (n: number) => {
    const given = await givenEvent(n);
    await t.get(RewardsService).createReward(tenantId, given.event.id, { name: 'Ticket', kind: 'manual', tickets: 2 });
    t.clock.advance(90 * 60_000);
    await givenScores(t, tenantId, given.event, given.players.slice(0, SCORED), (i) => 1 + (i % 50));
    t.clock.advance(2 * HOUR);
    return given;
  };

  /** What a completed event must show: every participant told once, each ticket holder their tickets, one outbox event per allocation. */
  const expectCompletedOnce = async (eventId: string, players: string[]) => {
    expect(await t.get(QuestEventsRepository).stateOf(eventId)).toEqual({ state: 'completed', pending: false });
    const completed = await notified('event_completed', eventId);
    expect(completed).toHaveLength(players.length);
    expect(completed.filter((c) => c.n !== 1)).toEqual([]);
    const tickets = await notified('tickets_allocated', eventId);
    expect(tickets.map((c) => [c.user_id, c.n, c.tickets]).sort()).toEqual(
      players
        .slice(0, SCORED)
        .map((u) => [u, 1, 2])
        .sort(),
    );
    expect(
      await numbers(
        t.dataSource,
        `SELECT count(*) AS n, count(DISTINCT user_id) AS users FROM quest_event_reward_allocations WHERE event_id = $1`,
        [eventId],
      ),
    ).toEqual({ n: SCORED, users: SCORED });
    expect(
      await numbers(
        t.dataSource,
        `SELECT count(*) AS n, count(DISTINCT payload->>'allocationId') AS allocations FROM outbox_events
          WHERE tenant_id = $1 AND type = 'reward.allocated' AND payload->>'eventId' = $2`,
        [tenantId, eventId],
      ),
    ).toEqual({ n: SCORED, allocations: SCORED });
  };

  it('completion works in batches of their own transactions: every participant told once, each ticket holder their tickets', async () => {
    const { event, players } = await givenEndedEvent(PARTICIPANTS);

    // Every statement of the completion, with its connection: cut into transactions.
    const recorded: { sql: string; connection: object }[] = [];
    const stop = await onStatements(t.dataSource, (sql, connection) => recorded.push({ sql, connection }));
    try {
      expect(await t.get(EventCompletionService).complete(tenantId, event.id, false)).toMatchObject({
        completedNow: true,
        allocationsCreated: SCORED,
        event: { state: 'completed' },
      });
    } finally {
      stop();
    }
    await expectCompletedOnce(event.id, players);

    const transactions: string[][] = [];
    const open = new Map<object, string[]>();
    for (const { sql, connection } of recorded) {
      if (sql === 'START TRANSACTION') open.set(connection, []);
      const tx = open.get(connection);
      if (!tx) continue;
      tx.push(sql);
      if (sql === 'COMMIT' || sql === 'ROLLBACK') {
        // The completion's own (each claims or locks the event), not the background's (rank compaction).
        if (tx.some((s) => s.includes('quest_events'))) transactions.push(tx);
        open.delete(connection);
      }
    }
    expect(transactions.every((tx) => tx.at(-1) === 'COMMIT')).toBe(true);
    // The claim, then batches of BATCH participants: 3 of final scores, 2 of tickets (1,200 ranked), 3 of notices.
    expect(transactions.length).toBe(1 + 3 + 2 + 3);
    // None holds every participant: each is a handful of statements (lock, read, write, place; the ticket batches' outbox).
    expect(Math.max(...transactions.map((tx) => tx.length))).toBeLessThan(12);
    const all = transactions.flat();
    expect(all.filter((s) => s.startsWith('INSERT INTO notifications'))).toHaveLength(3 + 2);
    expect(all.filter((s) => s.includes('INSERT INTO outbox_events'))).toHaveLength(Math.ceil(BATCH / OUTBOX_BATCH) + 1 + 1);
  });

  it('an interrupted completion goes on from its last batch at the next pass: nothing done twice, nothing left out', async () => {
    const { event, players } = await givenEndedEvent(PARTICIPANTS);
    // The second batch of tickets fails (as an instance stopping would): its transaction rolls back.
    let allocatedEvents = 0;
    let failing = true;
    t.get(DomainEvents).inTransaction('reward.allocated', async () => {
      if (failing && ++allocatedEvents > BATCH) throw new Error('planted failure');
    });
    // The close claimed it and made the first batch's allocations; the failed batch is left to the worker.
    expect(await t.get(EventCompletionService).complete(tenantId, event.id, false)).toMatchObject({
      completedNow: true,
      allocationsCreated: BATCH,
      event: { state: 'completing' },
    });
    failing = false;

    // Meanwhile the event is ended, its participants frozen, and it cannot be cancelled or given rewards.
    const events = t.get(QuestEventsService);
    expect(await t.get(QuestEventsRepository).stateOf(event.id)).toEqual({ state: 'completing', pending: true });
    expect(events.toDto(await events.resolve(tenantId, event.id)).status).toBe('ended');
    await expect(t.get(ParticipationService).drop(tenantId, event.id, players[0], null)).rejects.toMatchObject({
      definition: ParticipationErrors.event_already_ended,
    });
    await expect(events.cancel(tenantId, event.id)).rejects.toMatchObject({ definition: QuestEventErrors.quest_event_state });
    await expect(
      t.get(RewardsService).createReward(tenantId, event.id, { name: 'Late', kind: 'manual', tickets: 1 }),
    ).rejects.toMatchObject({
      definition: QuestEventErrors.quest_event_state,
    });
    // A close now answers that another call completes it.
    expect(await t.get(EventCompletionService).complete(tenantId, event.id, true)).toMatchObject({
      completedNow: false,
      allocationsCreated: 0,
    });

    // The worker's pass claims nothing new and finishes it.
    expect(await t.get(EventCompletionService).runOnce()).toEqual([]);
    await expectCompletedOnce(event.id, players);
  });

  it('a close that answers before the completion is done leaves it ended, and the worker finishes it', async () => {
    const { event, players } = await givenEndedEvent(PARTICIPANTS);
    const closed = await t.get(EventCompletionService).complete(tenantId, event.id, true, 0);
    expect(closed).toMatchObject({ completedNow: true, allocationsCreated: 0, event: { state: 'completing' } });
    expect(t.get(QuestEventsService).toDto(closed.event).status).toBe('ended');
    expect(await t.get(EventCompletionService).runOnce()).toEqual([]);
    await expectCompletedOnce(event.id, players);
  });

  it('two passes at once claim the event once and share its batches without doing any twice', async () => {
    const { event, players } = await givenEndedEvent(PARTICIPANTS);
    const worker = t.get(EventCompletionService);
    const [a, b] = await Promise.all([worker.runOnce(), worker.runOnce()]);
    expect([...a, ...b]).toEqual([event.id]);
    await expectCompletedOnce(event.id, players);
  });

  it('ranks and allocates across batches: ties keep their rank over a batch boundary, brackets and the rule hold, the standings read by place agree, as does the migration', async () => {
    // 7 players, batches of 3: scores 500, 90, 90, 90, 30, 20, 0 -> ranks 1, 2, 2, 2, 5, 6, unranked (scores of
    // different lengths: their decimal texts sort otherwise).
    const small = await createModuleTest({
      imports: [ParticipationModule, IntegrationsModule, TenantsModule],
      env: { QUEST_EVENT_WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false', QUEST_EVENT_COMPLETION_BATCH: '3' },
      clock: t.clock,
    });
    try {
      const tenant = await givenTenant(small);
      const community = await givenCommunity(small, tenant);
      const scores = [500, 90, 90, 90, 30, 20, 0];
      const { event, players: users } = await givenEventWithPlayers(small, tenant, community, scores.length, { minScore: 25, maxRank: 5 });
      const rewards = small.get(RewardsService);
      await rewards.createReward(tenant, event.id, { name: 'Gold', kind: 'manual', tickets: 5, rankFrom: 1, rankTo: 1 });
      await rewards.createReward(tenant, event.id, { name: 'Silver', kind: 'manual', tickets: 3, rankFrom: 2, rankTo: 4 });
      await rewards.createReward(tenant, event.id, { name: 'Any', kind: 'manual', tickets: 1 });
      small.clock.advance(90 * 60_000);
      await givenScores(small, tenant, event, users, (i) => scores[i]);
      small.clock.advance(2 * HOUR);
      await small.get(EventCompletionService).complete(tenant, event.id, false);

      const got: { user_id: string; name: string; rank: number | null; tickets: number }[] = await small.dataSource.query(
        `SELECT a.user_id, r.name, a.rank, a.tickets FROM quest_event_reward_allocations a JOIN quest_event_rewards r ON r.id = a.reward_id
          WHERE a.event_id = $1`,
        [event.id],
      );
      const of = (i: number) =>
        got
          .filter((a) => a.user_id === users[i])
          .map((a) => `${a.name}@${a.rank}`)
          .sort();
      expect(of(0)).toEqual(['Any@1', 'Gold@1']);
      for (const i of [1, 2, 3]) expect(of(i)).toEqual(['Any@2', 'Silver@2']);
      expect(of(4)).toEqual(['Any@5']);
      expect(of(5)).toEqual([]); // 20 < minScore 25
      expect(of(6)).toEqual([]); // unranked
      // The final standings the leaderboard shows agree with the ranks allocated by.
      const board = await small.get(QuestEventsService).leaderboard(tenant, event.id, { page: 1, offset: 0, limit: 10 });
      expect(board.items.map((i) => i.rank)).toEqual([1, 2, 2, 2, 5, 6]);
      expect(board.items.map((i) => i.userId)).toEqual([users[0], ...[users[1], users[2], users[3]].sort(), users[4], users[5]]);
      const second = await small.get(QuestEventsService).leaderboard(tenant, event.id, { page: 2, offset: 3, limit: 3 });
      expect(second.items.map((i) => i.rank)).toEqual([2, 5, 6]);
      expect(second.total).toBe(6);

      // The places as the completion stored them, batch by batch, are the ones the migration gives
      // an event completed before it (window functions over the whole event at once).
      const places = (run: (sql: string, params: unknown[]) => Promise<unknown[]>) =>
        run('SELECT user_id, final_position, final_rank FROM quest_event_participants WHERE event_id = $1 ORDER BY user_id', [event.id]);
      const stored = await places((sql, params) => small.dataSource.query(sql, params));
      expect(stored.filter((p) => (p as { final_position: number | null }).final_position !== null)).toHaveLength(6);
      await inRolledBackTransaction(small.dataSource, async (qr) => {
        const migration = new EventCompletionInSteps1795830000000();
        await migration.down(qr);
        await migration.up(qr);
        expect(await places((sql, params) => qr.query(sql, params))).toEqual(stored);
      });
    } finally {
      await small.close();
    }
  });

  it('a cancel is one short transaction; every REGISTERED participant is told once afterwards, in batches of their own', async () => {
    const { event, players } = await givenEvent(PARTICIPANTS);
    // One of them dropped earlier hears nothing.
    await t.dataSource.query('UPDATE quest_event_participants SET status = 3 WHERE event_id = $1 AND user_id = $2', [event.id, players[0]]);

    // The cancel tells no one in its own transaction, and leaves the telling to batches.
    const sql = await statementsOfFirstConnection(t.dataSource, () => t.get(QuestEventsService).cancel(tenantId, event.id));
    expect(sql[0]).toBe('START TRANSACTION');
    expect(sql.filter((s) => s.startsWith('INSERT INTO notifications'))).toEqual([]);
    expect(await notified('event_cancelled', event.id)).toEqual([]);
    expect(await t.get(QuestEventsRepository).stateOf(event.id)).toEqual({ state: 'cancelled', pending: true });

    // What the management API's cancel does next (the worker would, at its next pass): batches of BATCH.
    const recorded: string[] = [];
    const stop = await onStatements(t.dataSource, (statement) => recorded.push(statement));
    try {
      await t.get(EventCompletionService).tellCancelled(event.id);
    } finally {
      stop();
    }
    const cancelled = await notified('event_cancelled', event.id);
    expect(cancelled.map((c) => [c.user_id, c.n]).sort()).toEqual(
      players
        .slice(1)
        .map((u) => [u, 1])
        .sort(),
    );
    expect(recorded.filter((s) => s === 'START TRANSACTION' || s === 'COMMIT').length).toBeGreaterThanOrEqual(
      2 * Math.ceil(PARTICIPANTS / BATCH),
    );
    expect(recorded.filter((s) => s.startsWith('INSERT INTO notifications'))).toHaveLength(Math.ceil((PARTICIPANTS - 1) / NOTIFY_BATCH));
    expect(await t.get(QuestEventsRepository).stateOf(event.id)).toEqual({ state: 'cancelled', pending: false });
    // Nothing is told twice: the worker's pass finds nothing left.
    expect(await t.get(EventCompletionService).runOnce()).toEqual([]);
    expect((await notified('event_cancelled', event.id)).filter((c) => c.n !== 1)).toEqual([]);
  });
});
