import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenResourceType, type TestCommunity } from '../helpers/communities.js';
import type { TestUser } from '../helpers/factories.js';
import { admin, givenCommunity, givenEvent, givenEventQuest, givenMember, givenUser, HOUR } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

describe('community quests and quest tags', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let xp: { id: string; slug: string };
  let u: TestUser;
  let other: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant);
    xp = await givenResourceType(t, tenant, community.id, { slug: 'xp' });
    const api = admin(t, tenant);
    const q = async (key: string, body: object) => {
      const res = await api.post('/v1/admin/quests', { communityId: community.slug, ...body });
      expect(res.status).toBe(201);
      ids[key] = res.body.id;
    };
    const reward = (amount: number) => [{ type: 'resource', resourceTypeId: xp.id, amount }];
    await q('follow', { name: 'Follow us on X', type: 'social', tags: ['Twitter', 'onboarding'], featured: true, rewards: reward(10) });
    await q('retweet', {
      name: 'Retweet the launch',
      description: 'Spread the word',
      type: 'social',
      tags: ['twitter'],
      rewards: reward(5),
    });
    await q('mint', { name: 'Mint a badge', type: 'onchain', tags: ['onchain', 'onboarding'], rewards: reward(50) });
    await q('daily', { name: 'Daily login', type: 'daily', tags: ['daily'], template: true, rewards: reward(1) });
    await q('hidden', { name: 'Secret draft', type: 'social', tags: ['twitter'], status: 'draft' });
    u = await givenMember(t, tenant, community);
    other = await givenUser(t, tenant);
    expect((await api.post(`/v1/admin/quests/${ids.follow}/completions`, { userId: u.userId })).body.created).toBe(true);
    expect((await api.post(`/v1/admin/quests/${ids.mint}/completions`, { userId: other.userId })).body.created).toBe(true);
  });

  const all = 'tags=&questTypes=&featured=&query=&page=1&limit=20';
  const list = async (qs: string, user = u) => {
    const res = await t.http().get(`/v1/community/${community.id}/quests?${qs}`).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    return res.body;
  };
  const names = async (qs: string) => (await list(qs)).items.map((q: { name: string }) => q.name);

  it('lists active quests, featured first, with type, status, tags, rewards and completion', async () => {
    const body = await list(all);
    expect(body).toMatchObject({ total: 4, page: 1, limit: 20, hasNextPage: false });
    expect(body.items[0]).toMatchObject({
      id: ids.follow,
      type: 'social',
      status: 'active',
      tags: ['twitter', 'onboarding'],
      featured: true,
      completed: true,
      rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 10 }],
    });
    expect(body.items.map((q: { name: string }) => q.name)).toEqual([
      'Follow us on X',
      'Retweet the launch',
      'Mint a badge',
      'Daily login',
    ]);
    expect(body.items.find((q: { id: string }) => q.id === ids.mint).completed).toBe(false);
  });

  it('filters by tags (any of, case-insensitive, repeated or comma-separated)', async () => {
    expect(await names('tags=twitter&questTypes=&featured=&query=&page=1&limit=20')).toEqual(['Follow us on X', 'Retweet the launch']);
    expect(await names('tags=ONCHAIN&tags=daily&questTypes=&featured=&query=&page=1&limit=20')).toEqual(['Mint a badge', 'Daily login']);
    expect(await names('tags=onchain,daily&questTypes=&featured=&query=&page=1&limit=20')).toEqual(['Mint a badge', 'Daily login']);
    expect(await names('tags=nothing&questTypes=&featured=&query=&page=1&limit=20')).toEqual([]);
  });

  it('reads tags[]= and questTypes[]= (axios and most HTTP clients send arrays so) like repeats and commas', async () => {
    expect(await names('tags[]=ONCHAIN&tags[]=daily&questTypes=&featured=&query=&page=1&limit=20')).toEqual([
      'Mint a badge',
      'Daily login',
    ]);
    expect(await names('tags%5B%5D=onchain&tags%5B%5D=daily&questTypes[]=&featured=&query=&page=1&limit=20')).toEqual([
      'Mint a badge',
      'Daily login',
    ]);
    expect(await names('tags[]=&questTypes[]=daily&questTypes[]=onchain&featured=&query=&page=1&limit=20')).toEqual([
      'Mint a badge',
      'Daily login',
    ]);
    expect(await names('tags[]=twitter&questTypes[]=social&featured=&query=&page=1&limit=20')).toEqual([
      'Follow us on X',
      'Retweet the launch',
    ]);
  });

  it('filters by questTypes', async () => {
    expect(await names('tags=&questTypes=onchain&featured=&query=&page=1&limit=20')).toEqual(['Mint a badge']);
    expect(await names('tags=&questTypes=daily,onchain&featured=&query=&page=1&limit=20')).toEqual(['Mint a badge', 'Daily login']);
  });

  it('filters by featured', async () => {
    expect(await names('tags=&questTypes=&featured=true&query=&page=1&limit=20')).toEqual(['Follow us on X']);
    expect(await names('tags=&questTypes=&featured=false&query=&page=1&limit=20')).toEqual([
      'Retweet the launch',
      'Mint a badge',
      'Daily login',
    ]);
  });

  it('filters by text query in name and description, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(await names('tags=&questTypes=&featured=&query=MINT&page=1&limit=20')).toEqual(['Mint a badge']);
    expect(await names('tags=&questTypes=&featured=&query=spread%20the&page=1&limit=20')).toEqual(['Retweet the launch']);
    expect(await names('tags=&questTypes=&featured=&query=%25&page=1&limit=20')).toEqual([]);
  });

  it('combines filters and paginates', async () => {
    expect(await names('tags=twitter&questTypes=social&featured=false&query=launch&page=1&limit=20')).toEqual(['Retweet the launch']);
    const p2 = await list('tags=&questTypes=&featured=&query=&page=2&limit=3');
    expect(p2).toMatchObject({ total: 4, page: 2, limit: 3, hasNextPage: false });
    expect(p2.items).toHaveLength(1);
  });

  it('requires every query parameter (400 naming it) and validates values', async () => {
    for (const missing of ['tags', 'questTypes', 'featured', 'query', 'page', 'limit']) {
      const qs = all
        .split('&')
        .filter((p) => !p.startsWith(`${missing}=`))
        .join('&');
      const res = await t.http().get(`/v1/community/${community.id}/quests?${qs}`).set('Authorization', u.auth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(10002);
      expect(res.body.detail).toContain(missing);
    }
    expect(
      (
        await t
          .http()
          .get(`/v1/community/${community.id}/quests?tags=&questTypes=&featured=maybe&query=&page=1&limit=20`)
          .set('Authorization', u.auth)
      ).status,
    ).toBe(400);
    expect(
      (
        await t
          .http()
          .get(`/v1/community/${community.id}/quests?tags=&questTypes=&featured=&query=&page=1&limit=101`)
          .set('Authorization', u.auth)
      ).status,
    ).toBe(400);
    expect((await t.http().get(`/v1/community/${community.id}/quests?${all}`)).status).toBe(401);
    expect((await t.http().get(`/v1/community/nope/quests?${all}`).set('Authorization', u.auth)).status).toBe(404);
  });

  const tagsOf = async (qs: string, user = u) => {
    const res = await t.http().get(`/v1/community/${community.id}/quests/tags?${qs}`).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    return res.body as { tag: string; questCount: number; completedCount: number; availableCount: number; rewards?: unknown[] }[];
  };
  const base = 'excludeTemplateTags=false&userAvailableQuests=false&includeRewards=&userId=';

  it('returns tags with completion statistics of the current user', async () => {
    expect(await tagsOf(base)).toEqual([
      { tag: 'daily', questCount: 1, completedCount: 0, availableCount: 1 },
      { tag: 'onboarding', questCount: 2, completedCount: 1, availableCount: 1 },
      { tag: 'onchain', questCount: 1, completedCount: 0, availableCount: 1 },
      { tag: 'twitter', questCount: 2, completedCount: 1, availableCount: 1 },
    ]);
  });

  it('excludeTemplateTags leaves template quests (and tags only they use) out', async () => {
    expect((await tagsOf('excludeTemplateTags=true&userAvailableQuests=false&includeRewards=&userId=')).map((x) => x.tag)).toEqual([
      'onboarding',
      'onchain',
      'twitter',
    ]);
  });

  it('userAvailableQuests counts only quests not completed yet', async () => {
    const tags = await tagsOf('excludeTemplateTags=false&userAvailableQuests=true&includeRewards=&userId=');
    expect(tags.find((x) => x.tag === 'twitter')).toMatchObject({ questCount: 1, completedCount: 1 });
    expect(tags.find((x) => x.tag === 'onboarding')).toMatchObject({ questCount: 1 });
  });

  it('includeRewards sums the rewards of each tag', async () => {
    const tags = await tagsOf('excludeTemplateTags=false&userAvailableQuests=false&includeRewards=true&userId=');
    expect(tags.find((x) => x.tag === 'twitter')!.rewards).toEqual([{ type: 'resource', resourceTypeId: xp.id, amount: 15 }]);
    expect(tags.find((x) => x.tag === 'onboarding')!.rewards).toEqual([{ type: 'resource', resourceTypeId: xp.id, amount: 60 }]);
    expect(
      (await tagsOf('excludeTemplateTags=false&userAvailableQuests=true&includeRewards=true&userId=')).find((x) => x.tag === 'twitter')!
        .rewards,
    ).toEqual([{ type: 'resource', resourceTypeId: xp.id, amount: 5 }]);
    expect((await tagsOf('excludeTemplateTags=false&userAvailableQuests=false&includeRewards=false&userId='))[0].rewards).toBeUndefined();
  });

  it("userId gives another user's statistics", async () => {
    const tags = await tagsOf(`excludeTemplateTags=false&userAvailableQuests=false&includeRewards=&userId=${other.userId}`);
    expect(tags.find((x) => x.tag === 'onchain')).toMatchObject({ completedCount: 1, availableCount: 0 });
    expect(tags.find((x) => x.tag === 'twitter')).toMatchObject({ completedCount: 0 });
    const unknown = await t
      .http()
      .get(
        `/v1/community/${community.id}/quests/tags?excludeTemplateTags=false&userAvailableQuests=false&includeRewards=&userId=3b241101-e2bb-4255-8caf-4136c566a962`,
      )
      .set('Authorization', u.auth);
    expect(unknown.status).toBe(404);
  });

  it('requires every tag query parameter', async () => {
    for (const missing of ['excludeTemplateTags', 'userAvailableQuests', 'includeRewards', 'userId']) {
      const qs = base
        .split('&')
        .filter((p) => !p.startsWith(`${missing}=`))
        .join('&');
      const res = await t.http().get(`/v1/community/${community.id}/quests/tags?${qs}`).set('Authorization', u.auth);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(missing);
    }
    expect(
      (
        await t
          .http()
          .get(`/v1/community/${community.id}/quests/tags?excludeTemplateTags=&userAvailableQuests=false&includeRewards=&userId=`)
          .set('Authorization', u.auth)
      ).status,
    ).toBe(400);
    expect(
      (
        await t
          .http()
          .get(`/v1/community/${community.id}/quests/tags?excludeTemplateTags=false&userAvailableQuests=false&includeRewards=&userId=abc`)
          .set('Authorization', u.auth)
      ).status,
    ).toBe(400);
  });

  it("credits a quest's rewards exactly once, even when completed concurrently", async () => {
    const api = admin(t, tenant);
    const before = (await t.http().get(`/v1/community/${community.id}/ranking/xp`).set('Authorization', other.auth)).body.amount;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api.post(`/v1/admin/quests/${ids.retweet}/completions`, { userId: other.userId })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.created)).toHaveLength(1);
    const after = (await t.http().get(`/v1/community/${community.id}/ranking/xp`).set('Authorization', other.auth)).body.amount;
    expect(after - before).toBe(5);
  });

  it('manages quests: update, draft quests not completable, inconsistent rewards refused, other tenants 404', async () => {
    const api = admin(t, tenant);
    const upd = await api.patch(`/v1/admin/quests/${ids.hidden}`, { status: 'active', tags: ['Secret'] });
    expect(upd.body).toMatchObject({ status: 'active', tags: ['secret'] });
    expect(await names('tags=secret&questTypes=&featured=&query=&page=1&limit=20')).toEqual(['Secret draft']);
    await api.patch(`/v1/admin/quests/${ids.hidden}`, { status: 'draft' });
    expect((await api.post(`/v1/admin/quests/${ids.hidden}/completions`, { userId: u.userId })).body.error).toBe('quest_not_completable');
    const otherCommunity = await givenCommunity(t, tenant);
    const foreignXp = await givenResourceType(t, tenant, otherCommunity.id);
    const bad = await api.post('/v1/admin/quests', {
      communityId: community.id,
      name: 'x',
      type: 'social',
      rewards: [{ type: 'resource', resourceTypeId: foreignXp.id, amount: 1 }],
    });
    expect(bad.body).toMatchObject({ code: 10002, error: 'invalid_quest' });
    expect(
      (
        await api.post('/v1/admin/quests', {
          communityId: community.id,
          name: 'x',
          type: 'social',
          rewards: [{ type: 'resource', amount: 1 }],
        })
      ).status,
    ).toBe(400);
    const stranger = await t.givenTenant();
    expect((await admin(t, stranger).get(`/v1/admin/quests/${ids.follow}`)).status).toBe(404);
    expect((await api.get(`/v1/admin/quests?communityId=${community.id}&limit=2`)).body).toMatchObject({ total: 5, hasNextPage: true });
  });
  it("shows an event's quests only while the event is published: not a draft's, a cancelled or a completed event's", async () => {
    const c = await givenCommunity(t, tenant);
    const player = await givenMember(t, tenant, c);
    const api = admin(t, tenant);
    const plain = (await api.post('/v1/admin/quests', { communityId: c.id, name: 'Plain', type: 'social', tags: ['cup'] }).expect(201))
      .body;
    const draft = await givenEvent(t, tenant, c, { publish: false });
    const ofDraft = await givenEventQuest(t, tenant, draft, 5, { name: 'Of the draft', tags: ['cup'] });
    const closing = await givenEvent(t, tenant, c);
    const ofClosing = await givenEventQuest(t, tenant, closing, 5, { name: 'Of the closing', tags: ['cup'] });
    const seen = async () => {
      const res = await t.http().get(`/v1/community/${c.id}/quests?${all}`).set('Authorization', player.auth).expect(200);
      const tags = await t
        .http()
        .get(`/v1/community/${c.id}/quests/tags?excludeTemplateTags=false&userAvailableQuests=false&includeRewards=&userId=`)
        .set('Authorization', player.auth)
        .expect(200);
      return {
        ids: (res.body.items as { id: string }[]).map((q) => q.id).sort(),
        total: res.body.total as number,
        cup: (tags.body as { tag: string; questCount: number }[]).find((x) => x.tag === 'cup')?.questCount,
      };
    };
    const expected = (...quests: { id: string }[]) => ({ ids: quests.map((q) => q.id).sort(), total: quests.length, cup: quests.length });

    expect(await seen()).toEqual(expected(plain, ofClosing));
    // Published: its quests show at once (the lists are dropped at the commit).
    await api.patch(`/v1/admin/quest-events/${draft.id}`, { publish: true }).expect(200);
    expect(await seen()).toEqual(expected(plain, ofDraft, ofClosing));
    await api.post(`/v1/admin/quest-events/${draft.id}/cancel`, {}).expect(200);
    expect(await seen()).toEqual(expected(plain, ofClosing));
    t.clock.advance(3 * HOUR);
    await api.post(`/v1/admin/quest-events/${closing.id}/close`, {}).expect(200);
    t.clock.advance(-3 * HOUR);
    expect(await seen()).toEqual(expected(plain));
  });

  it("serves a list page from memory for up to READ_CACHE_MS; quest writes through this process and the caller's completions show at once", async () => {
    const before = await list(all);
    // A change this process does not see (another instance's): the cached page stays until it expires.
    await t.dataSource.query('UPDATE quests SET name = $1 WHERE id = $2', ['Renamed elsewhere', ids.retweet]);
    expect(await list(all)).toEqual(before);
    t.clock.advance(1001);
    const renamed = await list(all);
    expect(renamed.items.find((q: { id: string }) => q.id === ids.retweet).name).toBe('Renamed elsewhere');
    // A quest created through this process: listed by the next read.
    const created = await admin(t, tenant).post('/v1/admin/quests', {
      communityId: community.id,
      name: 'Brand new',
      type: 'social',
      tags: ['fresh'],
    });
    expect(created.status).toBe(201);
    const after = await list(all);
    expect(after.total).toBe(renamed.total + 1);
    expect(after.items.map((q: { id: string }) => q.id)).toContain(created.body.id);
    // The caller's completion is never cached.
    expect(after.items.find((q: { id: string }) => q.id === created.body.id).completed).toBe(false);
    expect((await admin(t, tenant).post(`/v1/admin/quests/${created.body.id}/completions`, { userId: u.userId })).body.created).toBe(true);
    expect((await list(all)).items.find((q: { id: string }) => q.id === created.body.id).completed).toBe(true);
  });
  it('follows a renamed community at once in the process that renamed it', async () => {
    const c = await givenCommunity(t, tenant);
    expect((await admin(t, tenant).post('/v1/admin/quests', { communityId: c.id, name: 'Only here', type: 'social' })).status).toBe(201);
    const quests = (ref: string) => t.http().get(`/v1/community/${ref}/quests?${all}`).set('Authorization', u.auth);
    expect((await quests(c.slug)).body.items.map((q: { name: string }) => q.name)).toEqual(['Only here']);
    const renamed = `${c.slug}-renamed`;
    expect((await admin(t, tenant).patch(`/v1/admin/communities/${c.id}`, { slug: renamed })).status).toBe(200);
    expect((await quests(c.slug)).status).toBe(404);
    expect((await quests(renamed)).body.items.map((q: { name: string }) => q.name)).toEqual(['Only here']);
  });
});
