import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import type { TestUser } from '../helpers/factories.js';
import { eventApi, givenCommunity, givenEvent, givenMember, HOUR, type TestEvent } from '../helpers/quests.js';
import { CacheBus } from '../../src/database/cache-bus.js';
import { createTwoTestApps, useTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/** What the list of `app` shows of `u`'s state: their status on `event`, and whether `quest` is completed. */
async function ownState(app: TestApp, u: TestUser, c: TestCommunity, event: TestEvent, quest: { id: string }) {
  const events = await app.http().get(`/v1/quest-event?limit=100`).set('Authorization', u.auth).expect(200);
  const quests = await app
    .http()
    .get(`/v1/community/${c.id}/quests?tags=&questTypes=&featured=&query=&page=1&limit=20`)
    .set('Authorization', u.auth)
    .expect(200);
  return {
    status: events.body.items.find((e: { id: string }) => e.id === event.id).participantStatus as number | null,
    completed: quests.body.items.find((q: { id: string }) => q.id === quest.id).completed as boolean,
  };
}

/** A tenant with a community, an event open for registration (on every app's clock), a quest and a member. */
async function givenOwnStateFixture(apps: TestApp[]) {
  const app = apps[0];
  const tenant = await app.givenTenant();
  const c = await givenCommunity(app, tenant);
  const event = await givenEvent(app, tenant, c);
  // Registration opens an hour after the event was created.
  for (const each of apps) each.clock.advance(HOUR + 60_000);
  const xp = await givenResourceType(app, tenant, c.id);
  const res = await adminApi(app, tenant).post('/v1/admin/quests', {
    communityId: c.id,
    name: 'Say hello',
    type: 'social',
    rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 5 }],
  });
  expect(res.status).toBe(201);
  const quest = res.body as { id: string };
  const u = await givenMember(app, tenant, c);
  return { tenant, c, event, quest, u };
}

/**
 * The caller's own state in the lists (participant statuses, the events a `participating=`
 * filter keeps, quest completions) is cached per user and process. Two instances on one database,
 * read caches that never expire during the test: a row changed behind the service's back stays
 * hidden (the value is cached), and a change made through either instance shows in the other's
 * next list because the drop travels on the cache bus, not because the value aged out.
 */
describe("the caller's own state in lists, cached across instances", () => {
  let a: TestApp;
  let b: TestApp;
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let event: TestEvent;
  let quest: { id: string };
  let u: TestUser;

  beforeAll(async () => {
    const env = { READ_CACHE_MS: '60000', MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' };
    [a, b] = await createTwoTestApps(env);
    ({ tenant, c, event, quest, u } = await givenOwnStateFixture([a, b]));
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The caller's status on the event in the list, and whether `participating=true` keeps it. */
  const eventState = async (app: TestApp) => {
    const list = await app.http().get(`/v1/quest-event?limit=100`).set('Authorization', u.auth).expect(200);
    const mine = await app.http().get(`/v1/quest-event?limit=100&participating=true`).set('Authorization', u.auth).expect(200);
    const row = list.body.items.find((e: { id: string }) => e.id === event.id);
    return { status: row.participantStatus as number | null, kept: mine.body.items.some((e: { id: string }) => e.id === event.id) };
  };
  const completed = async (app: TestApp) => (await ownState(app, u, c, event, quest)).completed;

  it('shows a registration and an unregistration made through the other instance', async () => {
    expect(await eventState(a)).toEqual({ status: null, kept: false });
    expect(await eventState(b)).toEqual({ status: null, kept: false });

    // A row written behind the service's back: the cached answers stay (nothing dropped them).
    await a.dataSource.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, score, registered_at, status_changed_at)
       VALUES ($1, $2, $3, 2, 0, now(), now())`,
      [tenant.id, event.id, u.userId],
    );
    expect(await eventState(a)).toEqual({ status: null, kept: false });
    await a.dataSource.query('DELETE FROM quest_event_participants WHERE event_id = $1 AND user_id = $2', [event.id, u.userId]);

    await eventApi(b, event)(u, 'post', '/participant/register').expect(201);
    expect(await eventState(b)).toEqual({ status: 1, kept: true }); // the writing instance: at its commit
    await until(
      () => eventState(a),
      (s) => s.status === 1 && s.kept,
    );

    await eventApi(a, event)(u, 'put', '/participant/unregister').expect(200);
    expect(await eventState(a)).toMatchObject({ kept: false });
    // Both lists are read one after the other: a drop that lands between the two reads shows in the
    // second only, so wait for both to show it.
    const after = await until(
      () => eventState(b),
      (s) => !s.kept && s.status === 2,
    );
    expect(after).toEqual({ status: 2, kept: false }); // UNREGISTERED
  });

  it('shows a quest completion made through the other instance', async () => {
    expect(await completed(a)).toBe(false);
    expect(await completed(b)).toBe(false);
    const res = await adminApi(b, tenant).post(`/v1/admin/quests/${quest.id}/completions`, { userId: u.userId });
    expect(res.body.created).toBe(true);
    expect(await completed(b)).toBe(true);
    await until(
      () => completed(a),
      (v) => v,
    );
  });
});

/**
 * Every change of the caller's own state is dropped at its commit, in every process through the
 * cache bus, so while the bus listens it is kept BOARD_CACHE_MS rather than READ_CACHE_MS: a row
 * changed behind the service's back shows only then.
 */
describe("the caller's own state in lists, kept while the cache bus listens", () => {
  const t = useTestApp({
    READ_CACHE_MS: '1000',
    BOARD_CACHE_MS: '10000',
    MINT_WORKER_ENABLED: 'false',
    QUEST_EVENT_WORKER_ENABLED: 'false',
  });
  let tenant: TenantCredentials;
  let c: TestCommunity;
  let event: TestEvent;
  let quest: { id: string };
  let u: TestUser;

  beforeAll(async () => {
    await until(
      async () => t.app.get(CacheBus).listening,
      (v) => v,
    );
    ({ tenant, c, event, quest, u } = await givenOwnStateFixture([t]));
  }, 60_000);

  it('serves it for up to BOARD_CACHE_MS, and a change through the service at once', async () => {
    expect(await ownState(t, u, c, event, quest)).toEqual({ status: null, completed: false });
    await t.dataSource.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, score, registered_at, status_changed_at)
       VALUES ($1, $2, $3, 2, 0, now(), now())`,
      [tenant.id, event.id, u.userId],
    );
    await t.dataSource.query('INSERT INTO quest_completions (tenant_id, quest_id, user_id, completed_at) VALUES ($1, $2, $3, now())', [
      tenant.id,
      quest.id,
      u.userId,
    ]);
    t.clock.advance(t.config.READ_CACHE_MS + 1);
    expect(await ownState(t, u, c, event, quest)).toEqual({ status: null, completed: false });
    t.clock.advance(t.config.BOARD_CACHE_MS - t.config.READ_CACHE_MS);
    expect(await ownState(t, u, c, event, quest)).toEqual({ status: 2, completed: true });

    // A change through the service: the next list has it, with no wait.
    await eventApi(t, event)(u, 'post', '/participant/register').expect(201);
    expect(await ownState(t, u, c, event, quest)).toEqual({ status: 1, completed: true });
  });
});
