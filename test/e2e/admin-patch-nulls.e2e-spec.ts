import { useTestApp } from '../helpers/test-app.js';
import { adminApi, givenCommunity, givenResourceType, type TestCommunity } from '../helpers/communities.js';
import { givenEvent } from '../helpers/quests.js';
import { givenItem, givenListing, givenPrize } from '../helpers/store.js';
import { givenUser } from '../helpers/factories.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

/*
 * Regression (outside probe): null for a field that cannot be empty reached a NOT NULL column or
 * code reading it (500), and a whitespace-only name blanked a community's name. In a PATCH an
 * absent field is unchanged; null only clears what may be empty (decisions.md, "Shared conventions").
 */
describe('management API: null and blank names in creates and updates, blank reasons in grants', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  let community: TestCommunity;
  let xp: { id: string; slug: string };

  const admin = () => adminApi(t, tenant);
  type Body = Record<string, unknown>;

  /** Each resource: its PATCH path, how to read it back, the fields that may not be null, those null clears, and a valid create. */
  interface Resource {
    name: string;
    path: () => string;
    read: () => Promise<Body>;
    notNull: string[];
    clearable: string[];
    create: { path: string; body: () => Body; notNull: string[] };
  }
  let resources: Resource[];
  let prizeId: string;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    community = await givenCommunity(t, tenant, {
      description: 'The crew',
      imageUrl: 'https://cdn.example.com/logo.png',
      bannerUrl: 'https://cdn.example.com/banner.png',
      links: [{ label: 'Discord', url: 'https://discord.gg/example' }],
    });
    xp = await givenResourceType(t, tenant, community.id, { description: 'Points', imageUrl: 'https://cdn.example.com/xp.png' });
    const prize = await givenPrize(t, tenant, { description: 'A jersey', imageUrl: 'https://cdn.example.com/p.png', totalSupply: 5 });
    prizeId = prize.id;
    const event = await givenEvent(t, tenant, community, {
      description: 'Cup',
      imageUrl: 'https://cdn.example.com/e.png',
      features: ['score-based'],
      capacity: 50,
      maxRank: 10,
    });
    const quest = (
      await admin()
        .post('/v1/admin/quests', {
          communityId: community.id,
          name: 'Follow us',
          description: 'On X',
          type: 'social',
          tags: ['twitter'],
          rewards: [{ type: 'resource', resourceTypeId: xp.id, amount: 5 }],
        })
        .expect(201)
    ).body;
    const schedule = (
      await admin()
        .post('/v1/admin/season-schedules', {
          communityId: community.id,
          resourceTypeId: xp.id,
          name: 'Weekly XP',
          cron: '0 0 * * 1',
          timeZone: 'Europe/Berlin',
          rewards: [{ fromRank: 1, toRank: 1, type: 'resource', refId: xp.id, amount: 5 }],
        })
        .expect(201)
    ).body;
    const requirement = (
      await admin()
        .post('/v1/admin/store/requirements', { key: 'wallet', name: 'Wallet', kind: 'data', schema: { type: 'object' } })
        .expect(201)
    ).body;
    const listing = await givenListing(t, tenant, {
      communityId: community.id,
      kind: 'resource',
      resourceTypeId: xp.id,
      description: 'Some XP',
      imageUrl: 'https://cdn.example.com/l.png',
      price: [{ resourceTypeId: xp.id, amount: 10 }],
      totalSupply: 100,
      perUserLimit: 2,
      startsAt: '2020-01-01T00:00:00.000Z',
      endsAt: '9000-01-01T00:00:00.000Z',
      requirementIds: [requirement.id],
    });
    const get = async (path: string) => (await admin().get(path).expect(200)).body as Body;
    const find = async (path: string, id: string) => ((await get(path)).items as Body[]).find((i) => i.id === id)!;

    resources = [
      {
        name: 'community',
        path: () => `/v1/admin/communities/${community.id}`,
        read: () => get(`/v1/admin/communities/${community.id}`),
        notNull: ['description', 'links', 'name', 'slug'],
        clearable: ['imageUrl', 'bannerUrl'],
        create: { path: '/v1/admin/communities', body: () => ({ slug: 'other', name: 'Other' }), notNull: ['description', 'links'] },
      },
      {
        name: 'prize',
        path: () => `/v1/admin/prizes/${prize.id}`,
        read: () => get(`/v1/admin/prizes/${prize.id}`),
        notNull: ['description', 'name', 'requirementIds'],
        clearable: ['imageUrl', 'totalSupply'],
        create: { path: '/v1/admin/prizes', body: () => ({ name: 'Other', kind: 'digital' }), notNull: ['description', 'requirementIds'] },
      },
      {
        name: 'quest event',
        path: () => `/v1/admin/quest-events/${event.id}`,
        // maxRank is read from the completion rule
        read: async () => {
          const e = await get(`/v1/admin/quest-events/${event.id}`);
          return { ...e, maxRank: (e.completionRule as Body).maxRank };
        },
        notNull: ['description', 'features', 'minScore', 'name', 'scoreResourceTypeId', 'startsAt', 'publish'],
        clearable: ['imageUrl', 'capacity', 'maxRank'],
        create: {
          path: '/v1/admin/quest-events',
          body: () => {
            const at = (h: number) => new Date(t.clock.now().getTime() + h * 3600_000).toISOString();
            return {
              communityId: community.id,
              slug: 'other',
              name: 'Other',
              registrationStartsAt: at(1),
              registrationEndsAt: at(3),
              startsAt: at(2),
              endsAt: at(10),
            };
          },
          notNull: ['description', 'features', 'minScore', 'scoreResourceTypeId', 'publish'],
        },
      },
      {
        name: 'quest',
        path: () => `/v1/admin/quests/${quest.id}`,
        read: () => get(`/v1/admin/quests/${quest.id}`),
        notNull: ['description', 'featured', 'name', 'rewards', 'status', 'tags', 'template', 'type'],
        clearable: [],
        create: {
          path: '/v1/admin/quests',
          body: () => ({ communityId: community.id, name: 'Other', type: 'social' }),
          notNull: ['description', 'featured', 'rewards', 'status', 'tags', 'template', 'questEventId'],
        },
      },
      {
        name: 'resource type',
        path: () => `/v1/admin/resources/types/${xp.id}`,
        read: () => find(`/v1/admin/resources/types?communityId=${community.id}`, xp.id),
        notNull: ['description', 'name'],
        clearable: ['imageUrl'],
        create: {
          path: '/v1/admin/resources/types',
          body: () => ({ communityId: community.id, slug: 'other', name: 'Other', kind: 'global' }),
          notNull: ['description', 'questEventId'],
        },
      },
      {
        name: 'season schedule',
        path: () => `/v1/admin/season-schedules/${schedule.id}`,
        read: () => find(`/v1/admin/season-schedules?communityId=${community.id}`, schedule.id),
        notNull: ['active', 'name', 'rewards'],
        clearable: [],
        create: {
          path: '/v1/admin/season-schedules',
          body: () => ({ communityId: community.id, resourceTypeId: xp.id, name: 'Other', cron: '0 0 * * 2', timeZone: 'UTC' }),
          notNull: ['rewards', 'questIds', 'reasons'],
        },
      },
      {
        name: 'store listing',
        path: () => `/v1/admin/store/listings/${listing.id}`,
        read: () => get(`/v1/admin/store/listings/${listing.id}`),
        notNull: ['active', 'description', 'name', 'price', 'requirementIds', 'position'],
        clearable: ['imageUrl', 'totalSupply', 'perUserLimit', 'startsAt', 'endsAt'],
        create: {
          path: '/v1/admin/store/listings',
          body: () => ({
            communityId: community.id,
            name: 'Other',
            kind: 'resource',
            resourceTypeId: xp.id,
            price: [{ resourceTypeId: xp.id, amount: 1 }],
          }),
          notNull: ['active', 'description', 'requirementIds', 'position', 'itemId', 'prizeId', 'quantity'],
        },
      },
    ];
  });

  /** What a refusal looked like, compared in one go so that a failure lists every field. */
  const outcome = (what: string, field: string, res: { status: number; body: Body }) => ({
    what,
    field,
    status: res.status,
    message: res.body.message,
    error: res.body.error,
    namesField: typeof res.body.detail === 'string' && res.body.detail.includes(field),
  });
  const refused = (what: string, field: string) => ({
    what,
    field,
    status: 400,
    message: 'generic_client_error',
    error: 'validation_failed',
    namesField: true,
  });

  it('refuses null for every field that cannot be empty, and a whitespace-only name, with 400 validation_failed; nothing changes', async () => {
    const seen: object[] = [];
    const expected: object[] = [];
    for (const r of resources) {
      const what = `PATCH ${r.name}`;
      const before = await r.read();
      const bodies: [string, Body][] = [
        ...r.notNull.map((f): [string, Body] => [f, { [f]: null }]),
        ['name', { name: '   ' }],
        ['name', { name: '\t\n' }],
        // A valid change sent with a null in the same body is not applied either.
        [r.notNull[0], { name: 'Changed', [r.notNull[0]]: null }],
      ];
      for (const [field, body] of bodies) {
        seen.push(outcome(what, field, await admin().patch(r.path(), body)));
        expected.push(refused(what, field));
      }
      seen.push({ what, after: await r.read() });
      expected.push({ what, after: before });
    }
    expect(seen).toEqual(expected);
  });

  it('refuses the same nulls and whitespace-only names when creating, and creates nothing', async () => {
    const seen: object[] = [];
    const expected: object[] = [];
    for (const r of resources) {
      const what = `POST ${r.name}`;
      const bodies: [string, Body][] = [
        ...[...r.create.notNull, 'name'].map((f): [string, Body] => [f, { ...r.create.body(), [f]: null }]),
        ['name', { ...r.create.body(), name: '  ' }],
      ];
      for (const [field, body] of bodies) {
        seen.push(outcome(what, field, await admin().post(r.create.path, body)));
        expected.push(refused(what, field));
      }
    }
    expect(seen).toEqual(expected);
    // Nothing was created: the slug is still free and the tenant has its one prize.
    await admin().post('/v1/admin/communities', { slug: 'other', name: 'Other' }).expect(201);
    expect(((await admin().get('/v1/admin/prizes').expect(200)).body as Body).total).toBe(1);
  });

  it('still clears with null what may be empty', async () => {
    for (const r of resources) {
      if (r.clearable.length === 0) continue;
      const res = await admin().patch(r.path(), Object.fromEntries(r.clearable.map((f) => [f, null])));
      expect({ what: r.name, status: res.status }).toEqual({ what: r.name, status: 200 });
      const after = await r.read();
      for (const f of r.clearable) expect({ what: r.name, field: f, value: after[f] }).toEqual({ what: r.name, field: f, value: null });
    }
  });

  it('refuses a whitespace-only or invisible reason in grants, deductions and awards, and moves nothing', async () => {
    const player = await givenUser(t, tenant);
    const item = await givenItem(t, tenant, community.id);
    await admin()
      .post('/v1/admin/resources/grants', {
        userId: player.userId,
        resourceTypeId: xp.id,
        amount: 10,
        reason: 'seed',
        idempotencyKey: 'seed',
      })
      .expect(201);
    const writes: [string, (reason: string, key: string) => Body][] = [
      [
        '/v1/admin/resources/grants',
        (reason, key) => ({ userId: player.userId, resourceTypeId: xp.id, amount: 5, reason, idempotencyKey: key }),
      ],
      [
        '/v1/admin/resources/deductions',
        (reason, key) => ({ userId: player.userId, resourceTypeId: xp.id, amount: 5, reason, idempotencyKey: key }),
      ],
      ['/v1/admin/inventory/grants', (reason, key) => ({ userId: player.userId, itemId: item.id, reason, idempotencyKey: key })],
      [`/v1/admin/prizes/${prizeId}/awards`, (reason, key) => ({ userId: player.userId, reason, idempotencyKey: key })],
    ];
    const seen: object[] = [];
    const expected: object[] = [];
    let n = 0;
    for (const [path, body] of writes) {
      for (const reason of ['   ', '\t', '\u200b']) {
        seen.push(outcome(`POST ${path} ${JSON.stringify(reason)}`, 'reason', await admin().post(path, body(reason, `blank-${++n}`))));
        expected.push(refused(`POST ${path} ${JSON.stringify(reason)}`, 'reason'));
      }
    }
    expect(seen).toEqual(expected);
    // Nothing moved: the balance is the seed's, no item is held, no prize awarded.
    const ledger = (await admin().get(`/v1/admin/resources/ledger?userId=${player.userId}&resourceTypeId=${xp.id}`).expect(200))
      .body as Body;
    expect((ledger.items as Body[]).map((e) => [e.delta, e.reason])).toEqual([[10, 'seed']]);
    const inventory = (await admin().get(`/v1/admin/users/${player.userId}/inventory`).expect(200)).body as Body;
    expect(inventory.items).toEqual([]);
    const owners = (await admin().get(`/v1/admin/prizes/${prizeId}/owners`).expect(200)).body as Body;
    expect(owners.items).toEqual([]);
    // A reason with a character that shows still grants.
    await admin().post('/v1/admin/resources/grants', writes[0][1]('match_won', 'shown')).expect(201);
  });
});
