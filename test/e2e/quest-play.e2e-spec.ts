import type { PublicEventType } from '../../src/integrations/event-catalog.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { eventValidators } from '../helpers/event-schemas.js';
import { adminApi, givenCommunity, givenResourceType, grant, type TestCommunity } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { balanceOf, givenPlayableQuest, play } from '../helpers/quest-play.js';
import { eventApi, givenEvent, givenEventQuest, givenMember, HOUR } from '../helpers/quests.js';
import { createTestApp, useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const DAY = 86_400_000;

/**
 * Quests players complete themselves (issue 47): tasks the service checks, claims, answers,
 * submissions with review, visits, the local kinds (game events, referrals, resources, other
 * quests), recurrence and streaks, gates, exactly-once rewards, and what goes out (outbox, the
 * player's notifications).
 */
describe('quest play', () => {
  const t = useTestApp(
    {
      QUEST_EVENT_WORKER_ENABLED: 'false',
      MINT_WORKER_ENABLED: 'false',
      WEBHOOK_WORKER_ENABLED: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      QUEST_CLAIMS_PER_MINUTE: '100000',
    },
    { resetClock: true },
  );
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let xp: { id: string; slug: string };
  const rewards = () => [{ type: 'resource', resourceTypeId: xp.id, amount: 10 }];

  beforeAll(async () => {
    tenant = await t.givenTenant();
    // A subscription to every quest event, so the outbox keeps them (no worker: nothing is sent).
    await adminApi(t, tenant)
      .post('/v1/admin/webhooks/subscriptions', {
        url: 'http://127.0.0.1:9/quests',
        eventTypes: ['quest.completed', 'quest.task_verified', 'quest.submission_reviewed'],
      })
      .expect(201);
    c = await givenCommunity(t, tenant, { timeZone: 'Europe/Berlin' });
    xp = await givenResourceType(t, tenant, c.id);
  });

  describe('answer tasks', () => {
    it('refuses a wrong answer with the attempts left, waits after it, closes after the last, completes on the right one', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'answer', answer: { answers: ['Treasure Island'], maxAttempts: 3, retryAfterSeconds: 60 } },
      ]);
      const u = await givenUser(t, tenant);
      const p = play(t, u, q.id);
      const task = q.tasks[0].id;
      const wrong = await p.answer(task, 'Atlantis');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        code: 10002,
        message: 'generic_client_error',
        error: 'wrong_answer',
        details: { attemptsLeft: 2 },
      });
      // within the wait: refused without counting an attempt
      const waiting = await p.answer(task, 'Treasure Island');
      expect(waiting.status).toBe(409);
      expect(waiting.body).toMatchObject({ error: 'task_not_open', details: { retryAt: expect.any(String) } });
      t.clock.advance(61_000);
      const right = await p.answer(task, '  treasure   ISLAND ');
      expect(right.status).toBe(200);
      expect(right.body).toMatchObject({ completed: true, completion: { created: true }, tasks: [{ state: 'done' }] });
      expect(await balanceOf(t, u.userId, xp.id)).toEqual({ balance: 10, earned: 10 });
      expect((await p.answer(task, 'Treasure Island')).body).toMatchObject({ error: 'task_not_open' });

      const closedFor = await givenUser(t, tenant);
      const p2 = play(t, closedFor, q.id);
      for (let i = 0; i < 3; i++) {
        t.clock.advance(61_000);
        expect((await p2.answer(task, `guess ${i}`)).status).toBe(400);
      }
      t.clock.advance(61_000);
      expect((await p2.answer(task, 'Treasure Island')).body).toMatchObject({
        error: 'task_not_open',
        detail: expect.stringMatching(/attempt/),
      });
      expect((await p2.show()).body.tasks[0]).toMatchObject({ state: 'closed', attemptsLeft: 0 });
    });

    it('never shows the answers, to players or operators, and refuses hostile input', async () => {
      const q = await givenPlayableQuest(t, tenant, c, {}, [{ kind: 'answer', answer: { answers: ['Kraken'] } }]);
      const listed = await adminApi(t, tenant).get(`/v1/admin/quests/${q.id}/tasks`).expect(200);
      expect(JSON.stringify(listed.body)).not.toMatch(/kraken/i);
      expect(listed.body[0].settings).toMatchObject({ answerCount: 1, caseSensitive: false, spaces: 'collapse' });
      const u = await givenUser(t, tenant);
      expect(JSON.stringify((await play(t, u, q.id).show()).body)).not.toMatch(/kraken/i);
      for (const bad of [{ answer: 'x'.repeat(501) }, { answer: 42 }, { answer: ['Kraken'] }, { answer: 'Kraken', __proto__x: 1 }]) {
        const r = await t.http().post(`/v1/quests/${q.id}/tasks/${q.tasks[0].id}/answer`).set('Authorization', u.auth).send(bad);
        expect(r.status).toBe(400);
      }
      const proto = await t
        .http()
        .post(`/v1/quests/${q.id}/tasks/${q.tasks[0].id}/answer`)
        .set('Authorization', u.auth)
        .set('Content-Type', 'application/json')
        .send('{"answer":"Kraken","__proto__":{"x":1}}');
      expect(proto.status).toBe(400);
      expect((await play(t, u, q.id).show()).body.completed).toBe(false);
    });
  });

  describe('submissions and their review', () => {
    it('waits for review, tells the player the rejection and its reason, takes a new one, completes on approval', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'submission', submission: { format: 'url', instructions: 'Link your post' } },
      ]);
      const u = await givenUser(t, tenant);
      const p = play(t, u, q.id);
      const task = q.tasks[0].id;
      expect((await p.submit(task, 'not a url')).body).toMatchObject({ error: 'submission_invalid' });
      expect((await p.submit(task, 'https://x.com/p/1')).body.tasks[0]).toMatchObject({ state: 'pending' });
      const api = adminApi(t, tenant);
      const queue = await api.get(`/v1/admin/quest-submissions?questId=${q.id}`).expect(200);
      expect(queue.body.items).toEqual([
        expect.objectContaining({
          questId: q.id,
          taskId: task,
          userId: u.userId,
          handle: u.username,
          content: 'https://x.com/p/1',
          state: 'pending',
        }),
      ]);
      const id = queue.body.items[0].id as string;
      expect((await api.post(`/v1/admin/quest-submissions/${id}/review`, { approve: false })).status).toBe(400);
      expect(
        (await api.post(`/v1/admin/quest-submissions/${id}/review`, { approve: false, reason: 'That post is not about the launch' })).body,
      ).toMatchObject({
        state: 'rejected',
        questCompleted: false,
      });
      expect((await api.post(`/v1/admin/quest-submissions/${id}/review`, { approve: true })).status).toBe(404);
      const notes = await t.http().get(`/v1/user/notifications?containerId=${c.id}`).set('Authorization', u.auth).expect(200);
      expect(notes.body.items[0]).toMatchObject({
        type: 'submission_reviewed',
        data: { approved: false, reason: 'That post is not about the launch' },
      });
      expect((await p.show()).body.tasks[0]).toMatchObject({ state: 'rejected', reviewReason: 'That post is not about the launch' });

      expect((await p.submit(task, 'https://x.com/p/2')).body.tasks[0]).toMatchObject({ state: 'pending' });
      const again = (await api.get(`/v1/admin/quest-submissions?questId=${q.id}`).expect(200)).body.items[0];
      expect(again.content).toBe('https://x.com/p/2');
      expect((await api.post(`/v1/admin/quest-submissions/${again.id}/review`, { approve: true })).body).toMatchObject({
        state: 'done',
        questCompleted: true,
      });
      expect(await balanceOf(t, u.userId, xp.id)).toEqual({ balance: 10, earned: 10 });
      expect((await p.show()).body).toMatchObject({ completed: true, tasks: [{ state: 'done' }] });
      const events: { type: string; version: number; payload: Record<string, unknown> }[] = await t.dataSource.query(
        "SELECT type, version, payload FROM outbox_events WHERE tenant_id = $1 AND payload->>'questId' = $2 ORDER BY occurred_at, type",
        [tenant.id, q.id],
      );
      expect(events.map((e) => e.type).sort()).toEqual([
        'quest.completed',
        'quest.submission_reviewed',
        'quest.submission_reviewed',
        'quest.task_verified',
      ]);
      // Each payload is what the published schema says (webhooks and NATS carry these).
      const { ajv, payload } = eventValidators();
      for (const e of events)
        expect({
          type: e.type,
          errors: payload[e.type as PublicEventType](e.payload) ? null : ajv.errorsText(payload[e.type as PublicEventType].errors),
        }).toEqual({ type: e.type, errors: null });
    });

    it('approves at once with autoApprove', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'submission', submission: { format: 'text', maxLength: 20, autoApprove: true } },
      ]);
      const u = await givenUser(t, tenant);
      expect((await play(t, u, q.id).submit(q.tasks[0].id, 'x'.repeat(21))).body).toMatchObject({ error: 'submission_invalid' });
      expect((await play(t, u, q.id).submit(q.tasks[0].id, 'gg wp')).body).toMatchObject({ completed: true });
    });
  });

  describe('visit tasks', () => {
    it('records the visit through the redirect it serves, and the claim then completes', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'visit', visit: { url: 'https://example.com/rules' } },
      ]);
      const u = await givenUser(t, tenant);
      const p = play(t, u, q.id);
      const shown = await p.show();
      const link = new URL(shown.body.tasks[0].visitUrl as string);
      expect((await p.claim()).body).toMatchObject({ completed: false, tasks: [{ state: 'todo' }] });
      const visit = await t.http().get(link.pathname);
      expect(visit.status).toBe(302);
      expect(visit.headers.location).toBe('https://example.com/rules');
      expect((await p.claim()).body).toMatchObject({ completed: true, completion: { created: true } });
      // forged or expired links
      expect((await t.http().get(`${link.pathname.slice(0, -3)}abc`)).body).toMatchObject({ error: 'visit_link_invalid' });
      t.clock.advance(2 * DAY);
      expect((await t.http().get(link.pathname)).body).toMatchObject({ error: 'visit_link_invalid' });
    });
  });

  describe('kinds the service checks itself', () => {
    it('counts game events posted by the game server, each once per idempotency key, in the period', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards(), recurrence: 'daily' }, [
        { kind: 'game_event', gameEvent: { eventType: 'match_won', aggregate: 'count', atLeast: 3 } },
        { kind: 'game_event', gameEvent: { eventType: 'gold_earned', aggregate: 'sum', atLeast: 100 } },
      ]);
      const u = await givenUser(t, tenant);
      const api = adminApi(t, tenant);
      const batch = (prefix: string, type: string, count: number, value = 1) =>
        Array.from({ length: count }, (_, i) => ({
          userId: u.userId,
          type,
          value,
          idempotencyKey: `${prefix}-${i}`,
          occurredAt: t.clock.now().toISOString(),
        }));
      const first = await api.post('/v1/admin/events', {
        events: [...batch(`w-${q.id}`, 'match_won', 2), ...batch(`g-${q.id}`, 'gold_earned', 1, 60)],
      });
      expect(first.body).toEqual({ accepted: 3, duplicates: 0, unknownUsers: [] });
      expect((await api.post('/v1/admin/events', { events: batch(`w-${q.id}`, 'match_won', 2) })).body).toMatchObject({
        accepted: 0,
        duplicates: 2,
      });
      const claimed = await play(t, u, q.id).claim();
      expect(claimed.body).toMatchObject({ completed: false });
      expect(claimed.body.tasks.map((x: { progress: unknown }) => x.progress)).toEqual([
        { current: 2, target: 3 },
        { current: 60, target: 100 },
      ]);
      await api.post('/v1/admin/events', {
        events: [...batch(`w2-${q.id}`, 'match_won', 1), ...batch(`g2-${q.id}`, 'gold_earned', 1, 40)],
      });
      expect((await play(t, u, q.id).claim()).body).toMatchObject({ completed: true });
      // events of another tenant's (or no) user are left out, named
      const stranger = await api.post('/v1/admin/events', {
        events: [{ userId: '00000000-0000-4000-8000-00000000dead', type: 'match_won', idempotencyKey: `x-${q.id}` }],
      });
      expect(stranger.body).toEqual({ accepted: 0, duplicates: 0, unknownUsers: [`x-${q.id}`] });
      // hostile batches
      for (const bad of [
        { events: [] },
        { events: Array.from({ length: 501 }, (_, i) => ({ userId: u.userId, type: 'a', idempotencyKey: `b${i}` })) },
        { events: [{ userId: u.userId, type: 'a b', idempotencyKey: 'k' }] },
        { events: [{ userId: u.userId, type: 'a', idempotencyKey: 'k', value: -1 }] },
      ])
        expect((await api.post('/v1/admin/events', bad)).status).toBe(400);
      expect(
        (
          await api.post('/v1/admin/events', {
            events: [
              { userId: u.userId, type: 'a', idempotencyKey: 'same' },
              { userId: u.userId, type: 'a', idempotencyKey: 'same' },
            ],
          })
        ).body,
      ).toMatchObject({ error: 'invalid_game_events' });
    });

    it('checks referrals, a resource and another quest', async () => {
      const first = await givenPlayableQuest(t, tenant, c, {}, [{ kind: 'answer', answer: { answers: ['yes'] } }]);
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 50 } },
        { kind: 'quest', quest: { questId: first.id } },
        { kind: 'referrals', referrals: { atLeast: 1 } },
      ]);
      const u = await givenUser(t, tenant);
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
      const before = await play(t, u, q.id).claim();
      expect(before.body.tasks.map((x: { state: string }) => x.state)).toEqual(['todo', 'todo', 'todo']);
      expect(before.body.tasks[0]).toMatchObject({ progress: { current: 0, target: 50 } });
      await grant(t, tenant, u.userId, xp.id, 50).expect(201);
      await play(t, u, first.id).answer(first.tasks[0].id, 'yes').expect(200);
      const friend = await givenUser(t, tenant);
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=${u.username}`).set('Authorization', friend.auth).expect(201);
      expect((await play(t, u, q.id).claim()).body).toMatchObject({
        completed: true,
        tasks: [{ state: 'done' }, { state: 'done' }, { state: 'done' }],
      });
      expect(await balanceOf(t, u.userId, xp.id)).toEqual({ balance: 60, earned: 60 });
    });
  });

  describe('exactly once', () => {
    it('credits a once-only quest once for 20 parallel claims of one player', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
        { kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'balance', atLeast: 1 } },
      ]);
      const u = await givenUser(t, tenant);
      await grant(t, tenant, u.userId, xp.id, 1).expect(201);
      const answers = await Promise.all(Array.from({ length: 20 }, () => play(t, u, q.id).claim()));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(answers.filter((a) => a.body.completion?.created === true)).toHaveLength(1);
      expect(answers.every((a) => a.body.completed === true)).toBe(true);
      expect(await balanceOf(t, u.userId, xp.id)).toEqual({ balance: 11, earned: 11 });
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM quest_completions WHERE quest_id = $1', [q.id]);
      expect(n).toBe(1);
      const history = await t.http().get('/v1/user/quest-completions').set('Authorization', u.auth).expect(200);
      expect(history.body.items).toEqual([expect.objectContaining({ questId: q.id, periodKey: 'once', communityId: c.id })]);
    });
  });

  describe('recurrence and streaks', () => {
    it('counts a daily quest claimed across midnight of the community time zone once in each day, with its streak and bonus', async () => {
      const q = await givenPlayableQuest(
        t,
        tenant,
        c,
        {
          rewards: rewards(),
          recurrence: 'daily',
          streakBonus: { every: 2, rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 100 }] },
        },
        [{ kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 1 } }],
      );
      const u = await givenUser(t, tenant);
      await grant(t, tenant, u.userId, xp.id, 1).expect(201);
      const p = play(t, u, q.id);
      // 23:59:59.999 in Berlin (UTC+1 in December)
      t.clock.freeze(new Date('2026-12-02T22:59:59.999Z'));
      const late = await p.claim();
      expect(late.body).toMatchObject({
        period: { key: '2026-12-02' },
        completion: { created: true },
        streak: { current: 1, best: 1, bonusEvery: 2 },
      });
      expect((await p.claim()).body).toMatchObject({ period: { key: '2026-12-02' }, completion: { created: false } });
      t.clock.freeze(new Date('2026-12-02T23:00:00.000Z'));
      const next = await p.claim();
      expect(next.body).toMatchObject({
        period: { key: '2026-12-03' },
        completion: { created: true, streakRewards: [{ amount: 100 }] },
        streak: { current: 2 },
      });
      expect(await balanceOf(t, u.userId, xp.id)).toEqual({ balance: 121, earned: 121 });
      // a missed day breaks the streak
      t.clock.freeze(new Date('2026-12-05T10:00:00.000Z'));
      expect((await p.show()).body.streak).toMatchObject({ current: 0, best: 2 });
      expect((await p.claim()).body).toMatchObject({ period: { key: '2026-12-05' }, streak: { current: 1, best: 2 }, completions: 3 });
      t.clock.unfreeze();
    });
  });

  describe('event quests', () => {
    it('a claimed event quest scores into the event for a REGISTERED player while it is active, and only then', async () => {
      const event = await givenEvent(t, tenant, c);
      const quest = await givenEventQuest(t, tenant, event, 15);
      await adminApi(t, tenant)
        .post(`/v1/admin/quests/${quest.id}/tasks`, { kind: 'answer', title: 'Code word', answer: { answers: ['ahoy'] } })
        .expect(201);
      const tasks = (await adminApi(t, tenant).get(`/v1/admin/quests/${quest.id}/tasks`).expect(200)).body as { id: string }[];
      const u = await givenMember(t, tenant, c);
      const call = eventApi(t, event);
      t.clock.advance(1 * HOUR);
      await call(u, 'post', '/participant/register').expect(201);
      // registration is open, the event not active yet: the answer is right and kept, the completion waits
      const early = await play(t, u, quest.id).answer(tasks[0].id, 'ahoy');
      expect(early.status).toBe(200);
      expect(early.body).toMatchObject({
        completed: false,
        tasks: [{ state: 'done' }],
        availability: { open: false, reason: expect.stringMatching(/not active/) },
      });
      expect((await play(t, u, quest.id).claim()).body).toMatchObject({ error: 'quest_not_completable' });
      t.clock.advance(1 * HOUR);
      const claimed = await play(t, u, quest.id).claim();
      expect(claimed.body).toMatchObject({ completed: true, completion: { created: true } });
      const participant = await call(u, 'get', '/participant').expect(200);
      expect(participant.body).toMatchObject({ score: 15 });
    });
  });

  describe('a streak across a restart', () => {
    it('keeps the streak in the database: the next day is claimed on a freshly started instance and counts on', async () => {
      const q = await givenPlayableQuest(t, tenant, c, { recurrence: 'daily', rewards: rewards() }, [
        { kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 1 } },
      ]);
      const u = await givenUser(t, tenant);
      await grant(t, tenant, u.userId, xp.id, 1).expect(201);
      t.clock.freeze(new Date('2026-12-10T12:00:00Z'));
      expect((await play(t, u, q.id).claim()).body.streak).toMatchObject({ current: 1 });
      t.clock.unfreeze();
      // Another process on the same database, with nothing in memory: a restart.
      const fresh = await createTestApp({
        DATABASE_URL: t.config.DATABASE_URL!,
        QUEST_EVENT_WORKER_ENABLED: 'false',
        MINT_WORKER_ENABLED: 'false',
      });
      try {
        fresh.clock.freeze(new Date('2026-12-11T12:00:00Z'));
        const next = await fresh.http().post(`/v1/quests/${q.id}/claim`).set('Authorization', u.auth).expect(200);
        expect(next.body).toMatchObject({ period: { key: '2026-12-11' }, completion: { created: true }, streak: { current: 2, best: 2 } });
      } finally {
        await fresh.close();
      }
    });
  });

  describe('who may claim', () => {
    it('holds the window, the completion limit, the cooldown, prerequisites and gates', async () => {
      const u = await givenUser(t, tenant);
      const task = [{ kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 1 } }];
      await grant(t, tenant, u.userId, xp.id, 1).expect(201);
      const soon = await givenPlayableQuest(t, tenant, c, { availableFrom: new Date(t.clock.nowMs() + DAY).toISOString() }, task);
      expect((await play(t, u, soon.id).claim()).body).toMatchObject({
        error: 'quest_not_claimable',
        code: 30003,
        details: { retryAt: expect.any(String) },
      });
      const limited = await givenPlayableQuest(t, tenant, c, { recurrence: 'daily', maxCompletions: 1, cooldownSeconds: 3600 }, task);
      expect((await play(t, u, limited.id).claim()).body).toMatchObject({ completed: true });
      t.clock.advance(DAY);
      expect((await play(t, u, limited.id).claim()).body).toMatchObject({
        error: 'quest_not_claimable',
        detail: expect.stringMatching(/1 time/),
      });
      const cooling = await givenPlayableQuest(t, tenant, c, { recurrence: 'daily', cooldownSeconds: 2 * 86400 }, task);
      expect((await play(t, u, cooling.id).claim()).body).toMatchObject({ completed: true });
      t.clock.advance(DAY);
      expect((await play(t, u, cooling.id).claim()).body).toMatchObject({
        error: 'quest_not_claimable',
        detail: expect.stringMatching(/cooling/),
      });
      const needsFirst = await givenPlayableQuest(t, tenant, c, { prerequisites: [soon.id] }, task);
      expect((await play(t, u, needsFirst.id).claim()).body).toMatchObject({
        error: 'quest_not_claimable',
        detail: expect.stringMatching(/builds on/),
      });
      const gated = await givenPlayableQuest(t, tenant, c, { gates: { minAccountAgeDays: 30, requireSocials: ['discord'] } }, task);
      expect((await play(t, u, gated.id).claim()).body).toMatchObject({ detail: expect.stringMatching(/30 days/) });
      t.clock.advance(31 * DAY);
      expect((await play(t, u, gated.id).claim()).body).toMatchObject({ detail: expect.stringMatching(/discord/) });
      await t
        .http()
        .post('/v1/user/socials')
        .set('Authorization', u.auth)
        .send({ accountType: 'discord', subjectId: `d${Date.now()}`, public: true })
        .expect(201);
      expect((await play(t, u, gated.id).claim()).body).toMatchObject({ completed: true });
      // a quest without tasks is the game's to complete
      const managed = await adminApi(t, tenant).post('/v1/admin/quests', { communityId: c.id, name: 'Managed', type: 'daily' });
      expect((await play(t, u, managed.body.id).claim()).body).toMatchObject({ error: 'quest_not_claimable' });
    });

    it('refuses bad schedules and task settings with 400', async () => {
      const api = adminApi(t, tenant);
      const base = { communityId: c.id, name: 'Bad', type: 'x' };
      for (const bad of [
        { ...base, recurrence: 'hourly' },
        { ...base, streakBonus: { every: 2, rewards: [] } },
        { ...base, availableFrom: '2027-01-02T00:00:00Z', availableUntil: '2027-01-01T00:00:00Z' },
        { ...base, prerequisites: ['00000000-0000-4000-8000-000000000001'] },
        { ...base, gates: { minAccountAgeDays: 0 } },
      ])
        expect((await api.post('/v1/admin/quests', bad)).status).toBe(400);
      const q = (await api.post('/v1/admin/quests', base)).body as { id: string };
      for (const bad of [
        { kind: 'answer', title: 't' },
        { kind: 'answer', title: 't', answer: { answers: [] } },
        { kind: 'answer', title: 't', answer: { answers: ['a'] }, visit: { url: 'https://x.y' } },
        { kind: 'visit', title: 't', visit: { url: 'javascript:alert(1)' } },
        {
          kind: 'onchain',
          title: 't',
          onchain: { chain: 'nowhere', standard: 'erc20', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
        },
        {
          kind: 'resource',
          title: 't',
          resource: { resourceTypeId: '00000000-0000-4000-8000-000000000001', measure: 'earned', atLeast: 1 },
        },
        { kind: 'quest', title: 't', quest: { questId: q.id } },
        { kind: 'game_event', title: 't', gameEvent: { eventType: 'x', aggregate: 'avg', atLeast: 1 } },
        { kind: 'social', title: 't', social: { accountType: 'twitch', discordGuildId: '123456789' } },
        { kind: 'teleport', title: 't' },
        { kind: 'visit', title: 't', visit: { url: 'https://x.y', extra: 1 } },
      ]) {
        const r = await api.post(`/v1/admin/quests/${q.id}/tasks`, bad);
        expect({ bad, status: r.status, message: r.body.message }).toEqual({ bad, status: 400, message: 'generic_client_error' });
      }
      expect((await api.get(`/v1/admin/quests/${q.id}/tasks`)).body).toEqual([]);
    });
  });

  it('tells the player of a completion on the notification list, and the outbox of each task verified once', async () => {
    const q = await givenPlayableQuest(t, tenant, c, { rewards: rewards() }, [
      { kind: 'resource', resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 1 } },
    ]);
    const u = await givenUser(t, tenant);
    await grant(t, tenant, u.userId, xp.id, 1).expect(201);
    await Promise.all([play(t, u, q.id).claim(), play(t, u, q.id).claim(), play(t, u, q.id).claim()]);
    const notes = await until(
      async () =>
        (await t.http().get(`/v1/user/notifications?containerId=${c.id}`).set('Authorization', u.auth)).body.items as { type: string }[],
      (items) => items.some((i) => i.type === 'quest_completed'),
    );
    expect(notes.filter((i) => i.type === 'quest_completed')).toHaveLength(1);
    const rows: { type: string }[] = await t.dataSource.query(
      "SELECT type FROM outbox_events WHERE tenant_id = $1 AND payload->>'questId' = $2 ORDER BY type",
      [tenant.id, q.id],
    );
    expect(rows.map((r) => r.type)).toEqual(['quest.completed', 'quest.task_verified']);
  });
});
