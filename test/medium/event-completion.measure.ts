import { performance } from 'node:perf_hooks';
import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { ParticipationModule } from '../../src/participation/participation.module.js';
import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import { EventParticipantsReadModel } from '../../src/quest-events/event-participants.read-model.js';
import { QuestEventsRepository } from '../../src/quest-events/quest-events.repository.js';
import { RewardsService } from '../../src/quest-events/rewards.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest } from './harness.js';
import { givenCommunity, givenEventWithPlayers, givenScores, givenTenant } from './fixtures.js';

/**
 * A measurement, not a test (its name is outside the medium project's `testMatch`, so `npm test`
 * never runs it): the completion of a quest event of MEASURE_PARTICIPANTS (1,000,000) REGISTERED
 * participants, MEASURE_SCORED (500,000) of them scored, one reward for every scorer, by an
 * EventCompletionService on PostgreSQL with QUEST_EVENT_COMPLETION_BATCH = MEASURE_BATCH (5,000)
 * and QUEST_EVENT_COMPLETION_REST_PERCENT = MEASURE_REST (0). Prints the setup's time, the
 * completion's, its transactions and the longest of them, and the time of the final standings'
 * reads (a page, a player's place) at the top, the middle and the bottom. docs/performance.md,
 * "An event's completion in batches".
 *
 *     DATABASE_URL=... node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects medium \
 *       --testMatch '<rootDir>/test/medium/event-completion.measure.ts'
 */
const PARTICIPANTS = Number(process.env.MEASURE_PARTICIPANTS ?? 1_000_000);
const SCORED = Number(process.env.MEASURE_SCORED ?? 500_000);
const HOUR = 3_600_000;

it('measures the completion of a large quest event', async () => {
  const t = await createModuleTest({
    imports: [ParticipationModule, IntegrationsModule, TenantsModule],
    env: {
      WEBHOOK_WORKER_ENABLED: 'false',
      QUEST_EVENT_COMPLETION_BATCH: process.env.MEASURE_BATCH ?? '5000',
      QUEST_EVENT_COMPLETION_REST_PERCENT: process.env.MEASURE_REST ?? '0',
    },
  });
  try {
    const t0 = performance.now();
    const tenantId = await givenTenant(t);
    const communityId = await givenCommunity(t, tenantId);
    const { event, players } = await givenEventWithPlayers(t, tenantId, communityId, PARTICIPANTS);
    await t.get(RewardsService).createReward(tenantId, event.id, { name: 'Ticket', kind: 'manual', tickets: 1 });
    t.clock.advance(90 * 60_000);
    await givenScores(t, tenantId, event, players.slice(0, SCORED), (i) => 1 + (i % 1000));
    await t.dataSource.query('ANALYZE');
    t.clock.advance(2 * HOUR);
    process.stdout.write(`setup: ${PARTICIPANTS} participants, ${SCORED} scored, in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    const worker = t.get(EventCompletionService);
    const steps: number[] = [];
    const step = worker.step.bind(worker);
    worker.step = async (id: string) => {
      const s0 = performance.now();
      try {
        return await step(id);
      } finally {
        steps.push(performance.now() - s0);
      }
    };
    const t1 = performance.now();
    expect(await worker.runOnce()).toEqual([event.id]);
    const ms = performance.now() - t1;
    expect(await t.get(QuestEventsRepository).stateOf(event.id)).toEqual({ state: 'completed', pending: false });
    steps.sort((a, b) => a - b);
    process.stdout.write(
      `completion: ${(ms / 1000).toFixed(1)} s in ${steps.length} batch transactions (+ the claim); ` +
        `per batch: median ${steps[Math.floor(steps.length / 2)].toFixed(0)} ms, longest ${steps.at(-1)!.toFixed(0)} ms\n`,
    );
    const [{ allocations, notices }] = await t.dataSource.query<{ allocations: number; notices: number }[]>(
      `SELECT (SELECT count(*)::int FROM quest_event_reward_allocations WHERE event_id = $1) AS allocations,
              (SELECT count(*)::int FROM notifications WHERE type = 'event_completed' AND data->>'eventId' = $1::text) AS notices`,
      [event.id],
    );
    expect({ allocations, notices }).toEqual({ allocations: SCORED, notices: PARTICIPANTS });

    // The final standings' reads, uncached: pages and players' places at the top, the middle and the bottom.
    const standings = t.get(EventParticipantsReadModel);
    const ranked = await standings.rankedCount(event.id);
    const median = async (read: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r0 = performance.now();
        await read();
        times.push(performance.now() - r0);
      }
      return times.sort((a, b) => a - b)[2].toFixed(1);
    };
    const at = async (position: number) =>
      (
        await t.dataSource.query<{ user_id: string }[]>(
          `SELECT user_id FROM quest_event_participants WHERE event_id = $1 AND status = 1 AND score > 0 ORDER BY score DESC, user_id OFFSET $2 LIMIT 1`,
          [event.id, position - 1],
        )
      )[0].user_id;
    const lines: string[] = [];
    for (const [name, position] of [
      ['top', 1],
      ['middle', Math.ceil(ranked / 2)],
      ['bottom', ranked],
    ] as const) {
      const offset = Math.max(0, Math.min(ranked - 50, position - 1));
      const user = await at(position);
      lines.push(
        `${name}: page of 50 ${await median(() => standings.standingsPage(event.id, { page: 1 + offset / 50, offset, limit: 50 }))} ms, ` +
          `a player's place ${await median(() => standings.standingAround(event.id, user, 2))} ms`,
      );
    }
    process.stdout.write(`final standings of ${ranked} ranked, medians of 5: ${lines.join('; ')}\n`);
  } finally {
    await t.close();
  }
}, 3_600_000);
