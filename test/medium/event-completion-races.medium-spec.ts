import type { QueryRunner } from 'typeorm';
import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { ParticipationService } from '../../src/participation/participation.service.js';
import { RewardsService } from '../../src/quest-events/rewards.service.js';
import { QuestsModule } from '../../src/quests/quests.module.js';
import { QuestsService } from '../../src/quests/quests.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { backendPid, waitingOn } from '../helpers/pg-locks.js';
import { until } from '../helpers/until.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenEventWithPlayers, givenScores, givenTenant, numbers, outcomeOf } from './fixtures.js';

/**
 * Writes that race an event's completion: each read the event as live just before the completion's
 * claim committed. The completion then writes in batches of their own transactions, so such a
 * write must not land between them: a live balance over a final score would move places and
 * tickets, and a reward seen by the later batches only would pay part of the standings.
 *
 * Each case holds, in a transaction of its own, what the completion holds at that moment (the
 * claimed event row; a participant's row with its final score), starts the write, waits until
 * PostgreSQL shows it waiting for a lock, then commits.
 */
describe('writes racing the completion of a quest event (medium: QuestsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let tenantId: string;
  let communityId: string;

  beforeAll(async () => {
    t = await createModuleTest({
      imports: [QuestsModule, IntegrationsModule, TenantsModule],
      env: { QUEST_EVENT_WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' },
    });
    tenantId = await givenTenant(t);
    communityId = await givenCommunity(t, tenantId);
  });
  afterAll(() => t?.close());
  afterEach(() => t.clock.reset());

  /** An active event of two REGISTERED players, its score type and quest (10 points of the score). */
  const givenActiveEvent = async () => {
    const given = await givenEventWithPlayers(t, tenantId, communityId, 2);
    t.clock.advance(90 * 60_000);
    const quest = await t.get(QuestsService).create(tenantId, {
      communityId,
      questEventId: given.event.id,
      name: 'Win a round',
      type: 'game',
      rewards: [{ type: 'resource', resourceTypeId: given.score, amount: 10 }],
    });
    return { ...given, questId: quest.id };
  };

  /** Runs `hold` in a transaction, then `write` beside it, commits once the write waits, and returns the write's outcome. */
  const racing = async (hold: (q: QueryRunner) => Promise<void>, write: () => Promise<unknown>, success: string) => {
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await hold(holder);
      const pid = await backendPid(holder);
      let settled = false;
      const pending = outcomeOf(write(), success).finally(() => {
        settled = true;
      });
      // Until the write waits for the holder's locks (or has ended without waiting: it then fails below).
      await until(
        async () => settled || (await waitingOn(t.dataSource, pid)) > 0,
        (ready) => ready,
      );
      await holder.commitTransaction();
      return await pending;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  };

  /** The claim (the event completing) and the first batch's final score of the player, uncommitted. */
  const claimAndFinalScore = (eventId: string, userId: string, finalScore: number) => async (q: QueryRunner) => {
    await q.query(`UPDATE quest_events SET state = 'completing' WHERE id = $1`, [eventId]);
    await q.query('UPDATE quest_event_participants SET score = $3 WHERE event_id = $1 AND user_id = $2', [eventId, userId, finalScore]);
  };

  const scoreOf = async (eventId: string, userId: string) =>
    (await numbers(t.dataSource, 'SELECT score FROM quest_event_participants WHERE event_id = $1 AND user_id = $2', [eventId, userId]))
      .score;

  it("a quest completion that read the event as active before the claim neither credits the score nor replaces the player's final score", async () => {
    const { event, score, players, questId } = await givenActiveEvent();
    const player = players[0];

    const outcome = await racing(
      claimAndFinalScore(event.id, player, 7),
      () => t.get(QuestsService).complete(tenantId, questId, player),
      'completed',
    );

    expect(outcome).toBe('quest_not_completable');
    expect(await scoreOf(event.id, player)).toBe(7);
    expect(
      await numbers(t.dataSource, 'SELECT count(*) AS n FROM resource_ledger WHERE resource_type_id = $1 AND user_id = $2', [
        score,
        player,
      ]),
    ).toEqual({ n: 0 });
  });

  it("a player's sync that read the event as active before the claim leaves the final score alone", async () => {
    const { event, players } = await givenActiveEvent();
    const player = players[0];
    await givenScores(t, tenantId, event, [player], () => 10);

    const outcome = await racing(
      claimAndFinalScore(event.id, player, 7),
      () => t.get(ParticipationService).sync(tenantId, player, event.id),
      'synced',
    );

    expect(outcome).toBe('synced');
    expect(await scoreOf(event.id, player)).toBe(7);
  });

  it('a reward added as the completion claims the event is refused, not paid to part of the standings', async () => {
    const { event } = await givenActiveEvent();

    const outcome = await racing(
      async (q) => {
        await q.query(`UPDATE quest_events SET state = 'completing' WHERE id = $1`, [event.id]);
      },
      () => t.get(RewardsService).createReward(tenantId, event.id, { name: 'Late prize', kind: 'manual' }),
      'created',
    );

    expect(outcome).toBe('quest_event_state');
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM quest_event_rewards WHERE event_id = $1', [event.id])).toEqual({ n: 0 });
  });

  it('without a completion the same calls do their work (the guards refuse only a completing event)', async () => {
    const { event, score, players, questId } = await givenActiveEvent();
    const player = players[1];

    await t.get(QuestsService).complete(tenantId, questId, player);
    expect(await scoreOf(event.id, player)).toBe(10);
    await givenScores(t, tenantId, event, [player], () => 5);
    expect((await t.get(ParticipationService).sync(tenantId, player, event.id)).score).toBe(15);
    await t.get(RewardsService).createReward(tenantId, event.id, { name: 'Prize', kind: 'manual' });
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM quest_event_rewards WHERE event_id = $1', [event.id])).toEqual({ n: 1 });
    expect(
      await numbers(t.dataSource, 'SELECT sum(earned_delta) AS n FROM resource_ledger WHERE resource_type_id = $1 AND user_id = $2', [
        score,
        player,
      ]),
    ).toEqual({ n: 15 });
  });
});
