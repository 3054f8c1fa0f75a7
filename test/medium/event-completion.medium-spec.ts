import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { OUTBOX_BATCH } from '../../src/integrations/outbox.repository.js';
import { NOTIFY_BATCH } from '../../src/notifications/notifications.service.js';
import { ParticipationModule } from '../../src/participation/participation.module.js';
import { EventCompletionService } from '../../src/quest-events/event-completion.service.js';
import { QuestEventsService } from '../../src/quest-events/quest-events.service.js';
import { RewardsService } from '../../src/quest-events/rewards.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { subscribeToEveryEvent } from '../helpers/outbox.js';
import { statementsOfFirstConnection } from '../helpers/pg-statements.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenCommunity, givenTenant, numbers, uniqueName } from './fixtures.js';

const HOUR = 3_600_000;
/** More participants than one statement of notifications or outbox events takes. */
const PARTICIPANTS = 2_500;
/** Of them, the ones with a score: ranked, and allocated tickets. */
const SCORED = 1_200;

/**
 * Completing and cancelling a large quest event on the real database: every participant is told,
 * in statements of a batch each (not a round trip per participant), and the outbox's events of
 * the allocations are written likewise.
 */
describe('EventCompletionService and cancel at scale (medium: ParticipationModule, IntegrationsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let tenantId: string;
  let communityId: string;

  beforeAll(async () => {
    t = await createModuleTest({
      imports: [ParticipationModule, IntegrationsModule, TenantsModule],
      env: { QUEST_EVENT_WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' },
    });
    tenantId = await givenTenant(t);
    await subscribeToEveryEvent(t.dataSource, tenantId);
    communityId = await givenCommunity(t, tenantId);
  });
  afterAll(() => t?.close());
  afterEach(() => t.clock.reset());

  /** A published event of a new scoped type, from +1 h to +3 h, with `n` REGISTERED participants (bulk SQL: what is under test is the completion). */
  const givenEvent = async (n: number) => {
    const score = (
      await t.get(ResourcesService).createType(tenantId, { communityId, slug: uniqueName('s'), name: 'Score', kind: 'scoped' })
    ).id;
    const now = t.clock.now().getTime();
    const event = await t.get(QuestEventsService).create(tenantId, {
      communityId,
      slug: uniqueName('ev'),
      name: 'Grand cup',
      registrationStartsAt: new Date(now - HOUR),
      registrationEndsAt: new Date(now + 2 * HOUR),
      startsAt: new Date(now + HOUR),
      endsAt: new Date(now + 3 * HOUR),
      scoreResourceTypeId: score,
    });
    const prefix = uniqueName('p').replace('-', '_');
    const users: { id: string }[] = await t.dataSource.query(
      `INSERT INTO users (tenant_id, handle, handle_normalized) SELECT $1, $2 || '_' || g, $2 || '_' || g FROM generate_series(1, $3::int) g RETURNING id`,
      [tenantId, prefix, n],
    );
    const players = users.map((u) => u.id);
    await t.dataSource.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, registered_at, status_changed_at)
       SELECT $1, $2, u, 1, now(), now() FROM unnest($3::uuid[]) u`,
      [tenantId, event.id, players],
    );
    return { event, score, players };
  };

  /** The notifications of `type` about the event, per user: how many, and the tickets they name. */
  const notified = (type: string, eventId: string) =>
    t.dataSource.query<{ user_id: string; n: number; tickets: number | null }[]>(
      `SELECT user_id, count(*)::int AS n, max((data->>'tickets')::int) AS tickets FROM notifications
        WHERE tenant_id = $1 AND type = $2 AND data->>'eventId' = $3 GROUP BY user_id`,
      [tenantId, type, eventId],
    );

  it('completion tells every participant and each ticket holder their tickets, in statements of a batch each', async () => {
    const { event, score, players } = await givenEvent(PARTICIPANTS);
    await t.get(RewardsService).createReward(tenantId, event.id, { name: 'Ticket', kind: 'manual', tickets: 2 });
    t.clock.advance(90 * 60_000);
    await t.get(LedgerService).creditMany(t.dataSource.manager, {
      tenantId,
      resourceTypeId: score,
      reason: 'medium-test',
      credits: players.slice(0, SCORED).map((userId, i) => ({ userId, amount: 1 + (i % 50), idempotencyKey: `${event.id}:${userId}` })),
    });
    t.clock.advance(2 * HOUR);

    const sql = await statementsOfFirstConnection(t.dataSource, async () =>
      expect(await t.get(EventCompletionService).complete(tenantId, event.id, false)).toMatchObject({
        completedNow: true,
        allocationsCreated: SCORED,
      }),
    );

    const completed = await notified('event_completed', event.id);
    expect(completed).toHaveLength(PARTICIPANTS);
    expect(completed.filter((c) => c.n !== 1)).toEqual([]);
    const tickets = await notified('tickets_allocated', event.id);
    expect(tickets.map((c) => [c.user_id, c.n, c.tickets]).sort()).toEqual(
      players
        .slice(0, SCORED)
        .map((u) => [u, 1, 2])
        .sort(),
    );
    // The allocations' events are in the outbox, one per allocation.
    expect(
      await numbers(
        t.dataSource,
        `SELECT count(*) AS n FROM outbox_events WHERE tenant_id = $1 AND type = 'reward.allocated' AND payload->>'eventId' = $2`,
        [tenantId, event.id],
      ),
    ).toEqual({ n: SCORED });

    // Notifications and outbox events in statements of a batch each, not one per participant.
    expect(sql[0]).toBe('START TRANSACTION');
    expect(sql[sql.length - 1]).toBe('COMMIT');
    expect(sql.filter((s) => s.startsWith('INSERT INTO notifications'))).toHaveLength(Math.ceil((PARTICIPANTS + SCORED) / NOTIFY_BATCH));
    expect(sql.filter((s) => s.includes('INSERT INTO outbox_events'))).toHaveLength(Math.ceil((SCORED + 1) / OUTBOX_BATCH));
    expect(sql.length).toBeLessThan(25);
  });

  it('a cancel tells every REGISTERED participant once, in statements of a batch each', async () => {
    const { event, players } = await givenEvent(PARTICIPANTS);
    // One of them dropped earlier hears nothing.
    await t.dataSource.query('UPDATE quest_event_participants SET status = 3 WHERE event_id = $1 AND user_id = $2', [event.id, players[0]]);

    const sql = await statementsOfFirstConnection(t.dataSource, () => t.get(QuestEventsService).cancel(tenantId, event.id));
    expect(sql[0]).toBe('START TRANSACTION');

    const cancelled = await notified('event_cancelled', event.id);
    expect(cancelled.map((c) => [c.user_id, c.n]).sort()).toEqual(
      players
        .slice(1)
        .map((u) => [u, 1])
        .sort(),
    );
    expect(sql.filter((s) => s.startsWith('INSERT INTO notifications'))).toHaveLength(Math.ceil((PARTICIPANTS - 1) / NOTIFY_BATCH));
    expect(sql.length).toBeLessThan(15);
  });
});
