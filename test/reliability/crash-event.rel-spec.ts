import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type Cluster } from '../helpers/processes.js';
import { asAdmin, expectOk, givenCommunity, givenResourceType, grant, pool, report, scale, unique } from './support.js';

const PARTICIPANTS = scale(2_000, 20_000);
/** Of them, the ones who score (ties among them); the rest stay unranked. */
const SCORED = PARTICIPANTS / 2;
/** Participants per batch: about a hundred batches either way, so the kill lands between two (or inside one). */
const BATCH = PARTICIPANTS / 40;

/**
 * Quest events: two instances complete an ended event of PARTICIPANTS REGISTERED players in
 * batches of BATCH (their workers poll every 100 ms); both are killed with SIGKILL while the
 * completion is in its standings, mid-way, and started again. The completion goes on from its last
 * committed batch, and every participant ends up scored, placed, allocated and told exactly once.
 */
describe(`crash: kill -9 while a quest event is completed (${PARTICIPANTS} participants)`, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster(createTestDatabase, 2, {
      QUEST_EVENT_WORKER_ENABLED: 'true',
      QUEST_EVENT_COMPLETION_INTERVAL_MS: '100',
      QUEST_EVENT_COMPLETION_BATCH: String(BATCH),
    });
  }, 120_000);
  afterAll(() => c?.close());

  it('goes on from its last batch after the crash and does each participant once', async () => {
    const [a, b] = c.apps;
    const tenant = c.tenant;
    const community = await givenCommunity(a, tenant);
    const score = await givenResourceType(a, tenant, community.id, 'scoped');
    const now = Date.now();
    const event = expectOk(
      await a.call('POST', '/v1/admin/quest-events', {
        headers: asAdmin(tenant),
        body: {
          communityId: community.id,
          slug: unique('crash-cup-'),
          name: 'Crash cup',
          registrationStartsAt: new Date(now - 60_000).toISOString(),
          registrationEndsAt: new Date(now + 1_000).toISOString(),
          startsAt: new Date(now - 30_000).toISOString(),
          // Long enough for the grants below on a slow machine; ended by moving the end once they are in.
          endsAt: new Date(now + 3_600_000).toISOString(),
          scoreResourceTypeId: score.id,
        },
      }),
      201,
      'create event',
    ).body as { id: string };
    expectOk(
      await a.call('POST', `/v1/admin/quest-events/${event.id}/rewards`, {
        headers: asAdmin(tenant),
        body: { name: 'Ticket', kind: 'manual', tickets: 1 },
      }),
      201,
      'create reward',
    );
    // The players, registered by bulk SQL (what is under test is the completion), then their scores
    // through both instances while the event runs.
    const players = (
      await c.sql.query<{ id: string }>(
        `INSERT INTO users (tenant_id, handle, handle_normalized) SELECT $1, $2 || g, $2 || g FROM generate_series(1, $3::int) g ORDER BY g RETURNING id`,
        [tenant.id, unique('crash_'), PARTICIPANTS],
      )
    ).rows.map((r) => r.id);
    await c.sql.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, registered_at, status_changed_at)
       SELECT $1, $2, u, 1, now(), now() FROM unnest($3::uuid[]) u`,
      [tenant.id, event.id, players],
    );
    await pool(8, SCORED, (i) => grant(i % 2 ? a : b, tenant, players[i], score.id, 1 + (i % 97)).then((r) => expectOk(r, 201, 'grant')));
    // The operator ends it now: the worker claims it at its next poll (the scores count entries before the new end).
    expectOk(
      await a.call('PATCH', `/v1/admin/quest-events/${event.id}`, {
        headers: asAdmin(tenant),
        body: { endsAt: new Date(Date.now() + 1_000).toISOString() },
      }),
      200,
      'end the event',
    );

    // Once the completion is in its standings, both instances go down at once: whichever was doing a batch is among them.
    const progress = async () =>
      (
        await c.sql.query<{ state: string; step: string | null; position: number | null }>(
          `SELECT state, completion->>'step' AS step, (completion->>'position')::int AS position FROM quest_events WHERE id = $1`,
          [event.id],
        )
      ).rows[0];
    let atKill: { state: string; step: string | null; position: number | null } | undefined;
    const deadline = Date.now() + 120_000;
    while (!atKill && Date.now() < deadline) {
      const p = await progress();
      if (p.state === 'completed') throw new Error('the event completed before the test could kill the instances completing it');
      if (p.step === 'ranked' && (p.position ?? 0) >= SCORED / 4) {
        await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
        atKill = p;
      } else await new Promise((r) => setTimeout(r, 5));
    }
    expect(atKill).toBeDefined();
    const t0 = performance.now();
    await Promise.all([a.restart(), b.restart()]);
    let done = false;
    while (!done && Date.now() < deadline + 60_000) {
      done = (await progress()).state === 'completed';
      if (!done) await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).toBe(true);
    const resumedMs = Math.round(performance.now() - t0);

    // Each participant once: told the event is complete; the scorers one allocation and one tickets
    // notice; their places and ranks those of the whole standings ranked at once.
    const wrong = (
      await c.sql.query<{ user_id: string }>(
        `WITH standings AS (
           SELECT user_id, ROW_NUMBER() OVER (ORDER BY score DESC, user_id) AS position, RANK() OVER (ORDER BY score DESC) AS rank
             FROM quest_event_participants WHERE event_id = $1 AND status = 1 AND score > 0),
         told AS (
           SELECT user_id, COUNT(*) FILTER (WHERE type = 'event_completed') AS completed, COUNT(*) FILTER (WHERE type = 'tickets_allocated') AS tickets
             FROM notifications WHERE data->>'eventId' = $1::text GROUP BY user_id),
         allocated AS (SELECT user_id, COUNT(*) AS n FROM quest_event_reward_allocations WHERE event_id = $1 GROUP BY user_id)
         SELECT p.user_id FROM quest_event_participants p
           LEFT JOIN standings s ON s.user_id = p.user_id LEFT JOIN told t ON t.user_id = p.user_id LEFT JOIN allocated x ON x.user_id = p.user_id
          WHERE p.event_id = $1
            AND (COALESCE(t.completed, 0) <> 1 OR COALESCE(t.tickets, 0) <> (p.score > 0)::int OR COALESCE(x.n, 0) <> (p.score > 0)::int
                 OR p.final_position IS DISTINCT FROM s.position OR p.final_rank IS DISTINCT FROM s.rank)`,
        [event.id],
      )
    ).rows;
    expect(wrong).toEqual([]);
    const [{ scored, placed }] = (
      await c.sql.query<{ scored: number; placed: number }>(
        `SELECT COUNT(*) FILTER (WHERE score > 0)::int AS scored, COUNT(final_position)::int AS placed FROM quest_event_participants WHERE event_id = $1`,
        [event.id],
      )
    ).rows;
    expect({ scored, placed }).toEqual({ scored: SCORED, placed: SCORED });
    report('quest event completion crash', {
      participants: PARTICIPANTS,
      placedBeforeKill: atKill!.position,
      completedAfterRestartMs: resumedMs,
    });
  }, 300_000);
});
