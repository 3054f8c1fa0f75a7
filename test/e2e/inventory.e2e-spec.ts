import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { InventoryService } from '../../src/inventory/inventory.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

describe('inventory: slots, items, grants, allocation and reads', () => {
  const t = useTestApp({ MINT_WORKER_ENABLED: 'false' });
  let tenant: TenantCredentials;
  let alice: TestUser;
  let bob: TestUser;
  let community: { id: string; slug: string };
  const slots: Record<string, { id: string; key: string }> = {};
  const items: Record<string, { id: string }> = {};

  const admin = () => ({
    post: (path: string, body: object) => t.http().post(`/v1/admin/inventory/${path}`).set('X-Api-Key', tenant.apiKey).send(body),
    patch: (path: string, body: object) => t.http().patch(`/v1/admin/inventory/${path}`).set('X-Api-Key', tenant.apiKey).send(body),
  });
  const inv = (path = '') => `/v1/community/${community.slug}/inventory${path}`;
  const allocate = (u: TestUser, body: unknown) =>
    t
      .http()
      .post(inv('/slots/allocate'))
      .set('Authorization', u.auth)
      .send(body as object);
  const grant = (userId: string, itemId: string, extra: object = {}) =>
    admin().post('grants', { userId, itemId, reason: 'test', ...extra });

  beforeAll(async () => {
    tenant = await t.givenTenant();
    alice = await givenUser(t, tenant);
    bob = await givenUser(t, tenant);
    const c = await t.http().post('/v1/admin/communities').set('X-Api-Key', tenant.apiKey).send({ slug: 'pirates', name: 'Space Pirates' });
    expect(c.status).toBe(201);
    community = { id: c.body.id, slug: c.body.slug };
  });

  it('creates slots through the management API, refusing a taken key, a missing API key and an unknown community', async () => {
    for (const [key, position] of [
      ['background', 0],
      ['body', 10],
      ['head', 20],
    ] as const) {
      const res = await admin().post('slots', { communityId: community.slug, key, name: key[0].toUpperCase() + key.slice(1), position });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ key, position, description: '' });
      slots[key] = res.body;
    }
    expect((await admin().post('slots', { communityId: community.id, key: 'head', name: 'Again' })).body).toMatchObject({
      code: 50004,
      error: 'slot_key_taken',
    });
    expect((await t.http().post('/v1/admin/inventory/slots').send({ communityId: community.id, key: 'feet', name: 'Feet' })).status).toBe(
      401,
    );
    expect((await admin().post('slots', { communityId: 'nope', key: 'feet', name: 'Feet' })).status).toBe(404);
    expect((await admin().post('slots', { communityId: community.id, key: 'Bad Key', name: 'x' })).body.code).toBe(10002);
    const renamed = await admin().patch(`slots/${slots.head.id}`, { name: 'Headwear' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Headwear');
  });

  it('creates items fitting a slot (by key or id), with supply and attributes, and updates them', async () => {
    const specs = [
      ['hat', 'head', { rarity: 'common' }],
      [
        'crown',
        'head',
        {
          rarity: 'legendary',
          supply: 3,
          imageUrl: 'https://cdn.example.com/crown.png',
          attributes: [
            { traitType: 'metal', value: 'gold' },
            { traitType: 'power', value: 9 },
          ],
        },
      ],
      ['coat', 'body', {}],
      ['armour', 'body', { supply: 1 }],
      ['stars', 'background', { imageUrl: 'https://cdn.example.com/stars.png' }],
    ] as const;
    for (const [name, slot, extra] of specs) {
      const res = await admin().post('items', {
        communityId: community.id,
        slotId: slot === 'body' ? slots.body.id : slot,
        name,
        ...extra,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, slotId: slots[slot].id, slotKey: slot, granted: 0 });
      items[name] = res.body;
    }
    expect(items.crown).toMatchObject({
      supply: 3,
      remaining: 3,
      rarity: 'legendary',
      attributes: [
        { traitType: 'metal', value: 'gold' },
        { traitType: 'power', value: 9 },
      ],
    });
    expect(items.hat).toMatchObject({ supply: null, remaining: null, rarity: 'common', imageUrl: null });
    expect((await admin().post('items', { communityId: community.id, slotId: 'feet', name: 'boots' })).body.error).toBe('slot_not_found');
    const updated = await admin().patch(`items/${items.hat.id}`, { description: 'A plain hat', rarity: 'uncommon' });
    expect(updated.body).toMatchObject({ description: 'A plain hat', rarity: 'uncommon' });
  });

  // Regression (reliability fuzzer): null for a field that cannot be empty reached a NOT NULL column (500).
  it('refuses null for the name, description, position, rarity or attributes of a slot or item update with 400', async () => {
    for (const field of ['name', 'description', 'position']) {
      const res = await admin().patch(`slots/${slots.head.id}`, { [field]: null });
      expect({ field, status: res.status, code: res.body.code }).toEqual({ field, status: 400, code: 10002 });
    }
    for (const field of ['name', 'description', 'rarity', 'attributes']) {
      const res = await admin().patch(`items/${items.hat.id}`, { [field]: null });
      expect({ field, status: res.status, code: res.body.code }).toEqual({ field, status: 400, code: 10002 });
    }
    // null still clears what may be empty
    expect((await admin().patch(`items/${items.hat.id}`, { imageUrl: null })).status).toBe(200);
  });

  it('grants items, notifies the user, and replays a grant with the same idempotency key', async () => {
    const first = await grant(alice.userId, items.hat.id, { idempotencyKey: 'alice-hat-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ quantity: 1, ownedQuantity: 1, replayed: false });
    const replay = await grant(alice.userId, items.hat.id, { idempotencyKey: 'alice-hat-1' });
    expect(replay.body).toMatchObject({ grantId: first.body.grantId, ownedQuantity: 1, replayed: true });
    expect((await grant(bob.userId, items.hat.id, { idempotencyKey: 'alice-hat-1' })).body).toMatchObject({
      code: 50007,
      error: 'grant_idempotency_key_reused',
    });
    expect((await grant(alice.userId, items.coat.id, { quantity: 2 })).body).toMatchObject({ quantity: 2, ownedQuantity: 2 });
    expect((await grant(alice.userId, items.stars.id)).status).toBe(201);

    const notes: { type: string; data: { itemId: string } }[] = await t.dataSource.query(
      `SELECT type, data FROM notifications WHERE user_id = $1 ORDER BY created_at, id`,
      [alice.userId],
    );
    expect(
      notes
        .filter((n) => n.type === 'item_granted')
        .map((n) => n.data.itemId)
        .sort(),
    ).toEqual([items.hat.id, items.coat.id, items.stars.id].sort());
    expect((await grant(alice.userId, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await grant('00000000-0000-4000-8000-000000000000', items.hat.id)).body.error).toBe('user_not_found');
  });

  it('never grants beyond the supply, also under concurrent grants', async () => {
    const results = await Promise.all([alice, bob, alice, bob, alice].map((u) => grant(u.userId, items.crown.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'supply_exhausted' && r.body.code === 50003)).toBe(true);
    const crown = await t
      .http()
      .get(inv(`/items/${items.crown.id}`))
      .set('X-Tenant-Id', tenant.id);
    expect(crown.body).toMatchObject({ supply: 3, granted: 3, remaining: 0 });
    const [{ n }]: { n: number }[] = await t.dataSource.query(
      'SELECT COALESCE(SUM(quantity), 0)::int AS n FROM user_items WHERE item_id = $1',
      [items.crown.id],
    );
    expect(n).toBe(3);
    expect((await admin().patch(`items/${items.crown.id}`, { supply: 2 })).body.error).toBe('supply_below_granted');
    expect((await admin().patch(`items/${items.crown.id}`, { supply: 4 })).body).toMatchObject({ supply: 4, remaining: 1 });
  });

  it("grantItem inside a caller's transaction leaves nothing behind when refused, even if the caller goes on", async () => {
    const service = t.app.get(InventoryService);
    const before = await t.dataSource.query<{ n: number }[]>('SELECT COUNT(*)::int AS n FROM item_grants');
    await t.dataSource.transaction(async (em) => {
      await expect(
        service.grantItem(em, {
          tenantId: tenant.id,
          userId: bob.userId,
          itemId: items.armour.id,
          quantity: 2,
          reason: 'quest_reward',
          reference: 'q-1',
        }),
      ).rejects.toMatchObject({
        definition: { error: 'supply_exhausted' },
      });
      const ok = await service.grantItem(em, {
        tenantId: tenant.id,
        userId: bob.userId,
        itemId: items.hat.id,
        quantity: 1,
        reason: 'quest_reward',
        reference: 'q-1',
      });
      expect(ok).toMatchObject({ communityId: community.id, ownedQuantity: 1, replayed: false });
    });
    const after = await t.dataSource.query<{ n: number }[]>('SELECT COUNT(*)::int AS n FROM item_grants');
    expect(after[0].n).toBe(before[0].n + 1);
    expect(
      (
        await t
          .http()
          .get(inv(`/items/${items.armour.id}`))
          .set('X-Tenant-Id', tenant.id)
      ).body.granted,
    ).toBe(0);
    // the ledger matches the holdings
    const mismatch = await t.dataSource.query(
      `SELECT g.user_id, g.item_id FROM (SELECT user_id, item_id, SUM(quantity)::int AS q FROM item_grants GROUP BY 1, 2) g
       FULL JOIN user_items u ON u.user_id = g.user_id AND u.item_id = g.item_id WHERE g.q IS DISTINCT FROM u.quantity`,
    );
    expect(mismatch).toEqual([]);
  });

  it('summarises the inventory for the current user', async () => {
    const res = await t.http().get(inv()).set('Authorization', alice.auth);
    expect(res.status).toBe(200);
    expect(res.body.communityId).toBe(community.id);
    expect(res.body.slots.map((s: { key: string }) => s.key)).toEqual(['background', 'body', 'head']);
    expect(res.body.itemCount).toBe(5);
    const crowns = await t.dataSource.query<{ quantity: number }[]>('SELECT quantity FROM user_items WHERE item_id = $1 AND user_id = $2', [
      items.crown.id,
      alice.userId,
    ]);
    const aliceCrowns = crowns[0]?.quantity ?? 0;
    expect(res.body.user).toEqual({
      userId: alice.userId,
      ownedItems: 3 + (aliceCrowns > 0 ? 1 : 0),
      totalQuantity: 4 + aliceCrowns,
      allocatedSlots: 0,
      avatarVersion: 0,
    });
    expect((await t.http().get(inv()).set('X-Tenant-Id', tenant.id)).status).toBe(401);
  });

  it('allocates owned items to their slots and bumps the avatar version', async () => {
    const res = await allocate(alice, {
      slots: [
        { slotId: 'head', itemId: items.hat.id },
        { slotId: slots.body.id, itemId: items.coat.id },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({});
    const avatar = await t
      .http()
      .get(inv(`/avatar?userId=${alice.userId}`))
      .set('X-Tenant-Id', tenant.id);
    expect(avatar.status).toBe(200);
    expect(avatar.body.version).toBe(1);
    expect(avatar.body.slots.map((s: { key: string; item: { id: string } | null }) => [s.key, s.item?.id ?? null])).toEqual([
      ['background', null],
      ['body', items.coat.id],
      ['head', items.hat.id],
    ]);
    expect(avatar.body).toMatchObject({ mint: null, mints: [] });
    // the same allocation again changes nothing: no new version
    expect((await allocate(alice, { slots: [{ slotId: 'head', itemId: items.hat.id }] })).status).toBe(201);
    expect(
      (
        await t
          .http()
          .get(inv(`/avatar?userId=${alice.userId}`))
          .set('X-Tenant-Id', tenant.id)
      ).body.version,
    ).toBe(1);
  });

  it('refuses invalid allocations as a whole and changes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ slots: [{ slotId: 'body', itemId: items.armour.id }] }, 'item_not_owned'],
      [
        {
          slots: [
            { slotId: 'background', itemId: items.stars.id },
            { slotId: 'body', itemId: items.hat.id },
          ],
        },
        'item_slot_mismatch',
      ],
      [
        {
          slots: [
            { slotId: 'background', itemId: items.stars.id },
            { slotId: 'feet', itemId: null },
          ],
        },
        'slot_not_found',
      ],
      [
        {
          slots: [
            { slotId: 'background', itemId: items.stars.id },
            { slotId: 'background', itemId: '' },
          ],
        },
        'duplicate_slot',
      ],
      [{ slots: [{ slotId: 'background', itemId: '00000000-0000-4000-8000-000000000000' }] }, 'item_not_found'],
      [{ slots: [{ slotId: 'background', itemId: 'not-a-uuid' }] }, 'validation_failed'],
      [{ slots: [] }, 'validation_failed'],
      [{ slots: [{ slotId: 'background', itemId: items.stars.id }], userId: bob.userId }, 'validation_failed'],
    ];
    for (const [body, error] of cases) {
      const res = await allocate(alice, body);
      expect([res.body.error, res.status]).toEqual([error, error === 'slot_not_found' || error === 'item_not_found' ? 404 : 400]);
    }
    const avatar = await t
      .http()
      .get(inv(`/avatar?userId=${alice.userId}`))
      .set('X-Tenant-Id', tenant.id);
    expect(avatar.body.version).toBe(1);
    expect(avatar.body.slots.find((s: { key: string }) => s.key === 'background').item).toBeNull();
  });

  it('empties a slot with null or "" in the same all-or-nothing request', async () => {
    expect(
      (
        await allocate(alice, {
          slots: [
            { slotId: 'background', itemId: items.stars.id },
            { slotId: 'body', itemId: null },
          ],
        })
      ).status,
    ).toBe(201);
    let slotsRes = await t
      .http()
      .get(inv(`/slots?userId=${alice.userId}`))
      .set('X-Tenant-Id', tenant.id);
    expect(slotsRes.body.slots.map((s: { item: { id: string } | null }) => s.item?.id ?? null)).toEqual([
      items.stars.id,
      null,
      items.hat.id,
    ]);
    expect(
      (
        await allocate(alice, {
          slots: [
            { slotId: 'body', itemId: items.coat.id },
            { slotId: 'head', itemId: '' },
          ],
        })
      ).status,
    ).toBe(201);
    slotsRes = await t
      .http()
      .get(inv(`/slots?userId=${alice.userId}`))
      .set('X-Tenant-Id', tenant.id);
    expect(slotsRes.body).toMatchObject({ communityId: community.id, userId: alice.userId });
    expect(slotsRes.body.slots.map((s: { item: { id: string } | null }) => s.item?.id ?? null)).toEqual([
      items.stars.id,
      items.coat.id,
      null,
    ]);
    expect(
      (
        await t
          .http()
          .get(inv(`/avatar?userId=${alice.userId}`))
          .set('X-Tenant-Id', tenant.id)
      ).body.version,
    ).toBe(3);
  });

  it("lets anyone read a user's slots, items and avatar, but only the user writes them", async () => {
    // bob (or no one) reads alice's data
    const read = await t
      .http()
      .get(inv(`/slots?userId=${alice.userId}`))
      .set('X-Tenant-Id', tenant.id);
    expect(read.status).toBe(200);
    const asBob = await t
      .http()
      .get(inv(`/items?userId=${alice.userId}&onlyOwned=true`))
      .set('X-Tenant-Id', tenant.id);
    expect(asBob.body.items.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['coat', 'hat', 'stars']));
    // bob cannot put alice's items on (writes are always the current user's); anonymous writes are 401
    expect((await allocate(bob, { slots: [{ slotId: 'body', itemId: items.coat.id }] })).body.error).toBe('item_not_owned');
    expect(
      (
        await t
          .http()
          .post(inv('/slots/allocate'))
          .set('X-Tenant-Id', tenant.id)
          .send({ slots: [{ slotId: 'body', itemId: items.coat.id }] })
      ).status,
    ).toBe(401);
    expect(
      (
        await t
          .http()
          .get(inv(`/slots?userId=${alice.userId}`))
          .set('X-Tenant-Id', tenant.id)
      ).body.slots[1].item.id,
    ).toBe(items.coat.id);
    expect((await t.http().get(inv('/avatar?userId=00000000-0000-4000-8000-000000000000')).set('X-Tenant-Id', tenant.id)).body.error).toBe(
      'user_not_found',
    );
    expect((await t.http().get(inv('/avatar')).set('X-Tenant-Id', tenant.id)).status).toBe(400);
    expect((await t.http().get(`/v1/community/nope/inventory/avatar?userId=${alice.userId}`).set('X-Tenant-Id', tenant.id)).status).toBe(
      404,
    );
  });

  it("lists a user's items with onlyOwned true or false (booleans: test/e2e/query-booleans), paginated", async () => {
    const get = (q: string) =>
      t
        .http()
        .get(inv(`/items?${q}`))
        .set('X-Tenant-Id', tenant.id);
    const all = await get(`userId=${alice.userId}&onlyOwned=false`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 20, total: 5, hasNextPage: false });
    // ordered by slot position, then name
    expect(all.body.items.map((i: { name: string }) => i.name)).toEqual(['stars', 'armour', 'coat', 'crown', 'hat']);
    const coat = all.body.items.find((i: { name: string }) => i.name === 'coat');
    expect(coat).toMatchObject({ ownedQuantity: 2, allocated: true, slotKey: 'body' });
    expect(all.body.items.find((i: { name: string }) => i.name === 'armour')).toMatchObject({ ownedQuantity: 0, allocated: false });
    const owned = await get(`userId=${alice.userId}&onlyOwned=true&limit=2&page=2`);
    expect(owned.body).toMatchObject({ page: 2, limit: 2, hasNextPage: owned.body.total > 4 });
    expect(owned.body.items.every((i: { ownedQuantity: number }) => i.ownedQuantity > 0)).toBe(true);
    for (const bad of [
      `userId=${alice.userId}`,
      `userId=${alice.userId}&onlyOwned=yes`,
      'onlyOwned=true',
      `userId=${alice.userId}&onlyOwned=true&limit=0`,
    ]) {
      const res = await get(bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 10002]);
    }
  });

  it('lists the items of a slot for the current user with onlyOwned, and reads one item', async () => {
    const head = await t.http().get(inv('/slots/head/items?onlyOwned=false')).set('Authorization', bob.auth);
    expect(head.status).toBe(200);
    expect(head.body.items.map((i: { name: string }) => i.name)).toEqual(['crown', 'hat']);
    const bobOwned = await t
      .http()
      .get(inv(`/slots/${slots.head.id}/items?onlyOwned=true`))
      .set('Authorization', bob.auth);
    const bobCrowns = (
      await t.dataSource.query<unknown[]>('SELECT quantity FROM user_items WHERE item_id = $1 AND user_id = $2', [
        items.crown.id,
        bob.userId,
      ])
    ).length;
    // bob got a hat in the grantItem test, and crowns if he won any of the concurrent grants
    expect(bobOwned.body.items.map((i: { name: string }) => i.name)).toEqual(bobCrowns > 0 ? ['crown', 'hat'] : ['hat']);
    expect((await t.http().get(inv('/slots/feet/items?onlyOwned=true')).set('Authorization', bob.auth)).body.error).toBe('slot_not_found');
    expect((await t.http().get(inv('/slots/head/items')).set('Authorization', bob.auth)).status).toBe(400);
    expect((await t.http().get(inv('/slots/head/items?onlyOwned=true')).set('X-Tenant-Id', tenant.id)).status).toBe(401);

    const one = await t
      .http()
      .get(inv(`/items/${items.stars.id}`))
      .set('X-Tenant-Id', tenant.id);
    expect(one.body).toMatchObject({
      id: items.stars.id,
      name: 'stars',
      slotKey: 'background',
      imageUrl: 'https://cdn.example.com/stars.png',
    });
    expect((await t.http().get(inv('/items/00000000-0000-4000-8000-000000000000')).set('X-Tenant-Id', tenant.id)).body).toMatchObject({
      code: 50002,
      error: 'item_not_found',
    });
    expect((await t.http().get(inv('/items/zzz')).set('X-Tenant-Id', tenant.id)).status).toBe(404);
  });

  it("keeps tenants apart: another tenant cannot see or use this community's items", async () => {
    const other = await t.givenTenant();
    expect(
      (
        await t
          .http()
          .post('/v1/admin/inventory/grants')
          .set('X-Api-Key', other.apiKey)
          .send({ userId: alice.userId, itemId: items.hat.id, reason: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (
        await t
          .http()
          .get(inv(`/items/${items.hat.id}`))
          .set('X-Tenant-Id', other.id)
      ).status,
    ).toBe(404);
  });
});
