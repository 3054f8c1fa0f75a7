import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { ADDRESS_SCHEMA, EMAIL_SCHEMA, givenListing, givenPrize, givenRequirement, purchase, userGet } from '../helpers/store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { uniqueName } from '../factories/unique-name.js';

describe('prizes', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  let other: TenantCredentials;

  beforeAll(async () => {
    // A tenant of its own for the list tests, so the totals are exact.
    tenant = await t.givenTenant();
    other = await t.givenTenant();
  });

  const admin = () => adminApi(t, tenant);
  const award = (prizeId: string, u: TestUser, fields: Record<string, unknown> = {}) =>
    admin().post(`/v1/admin/prizes/${prizeId}/awards`, {
      userId: u.userId,
      reason: 'test',
      idempotencyKey: uniqueName('k'),
      ...fields,
    });

  it("lists every prize or only the owned ones (ownedOnly), with supply and the user's units", async () => {
    const own = await t.givenTenant();
    const ownAdmin = adminApi(t, own);
    const mk = async (fields: Record<string, unknown>) =>
      (await ownAdmin.post('/v1/admin/prizes', { kind: 'achievement', ...fields }).expect(201)).body;
    const first = await mk({ name: 'First blood', totalSupply: 10 });
    const second = await mk({ name: 'Unlimited', kind: 'digital' });
    const third = await mk({ name: 'Third', totalSupply: 1 });
    const u = await givenUser(t, own);
    const v = await givenUser(t, own);
    const give = (prizeId: string, who: TestUser, quantity = 1) =>
      ownAdmin
        .post(`/v1/admin/prizes/${prizeId}/awards`, {
          userId: who.userId,
          quantity,
          reason: 'r',
          idempotencyKey: `${prizeId}-${who.userId}-${quantity}`,
        })
        .expect(201);
    await give(first.id, u, 2);
    await give(third.id, v);

    const all = await userGet(t, u, '/v1/inventory/prizes?ownedOnly=false').expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 20, hasNextPage: false });
    expect(
      all.body.items.map((p: { name: string; ownedQuantity: number; remainingSupply: number | null; awarded: number }) => [
        p.name,
        p.ownedQuantity,
        p.awarded,
        p.remainingSupply,
      ]),
    ).toEqual([
      ['First blood', 2, 2, 8],
      ['Unlimited', 0, 0, null],
      ['Third', 0, 1, 0],
    ]);
    const owned = await userGet(t, u, '/v1/inventory/prizes?ownedOnly=true').expect(200);
    expect(owned.body).toMatchObject({ total: 1 });
    expect(owned.body.items).toEqual([{ ...first, awarded: 2, remainingSupply: 8, ownedQuantity: 2 }]);
    expect((await userGet(t, v, '/v1/inventory/prizes?ownedOnly=true').expect(200)).body.items.map((p: { id: string }) => p.id)).toEqual([
      third.id,
    ]);
    const page2 = await userGet(t, u, '/v1/inventory/prizes?ownedOnly=false&limit=2&page=2').expect(200);
    expect(page2.body.items.map((p: { id: string }) => p.id)).toEqual([third.id]);
    expect(second.totalSupply).toBeNull();

    // ownedOnly is required and must be "true" or "false"; a session is required.
    expect((await userGet(t, u, '/v1/inventory/prizes')).body).toMatchObject({ code: 10002 });
    expect((await userGet(t, u, '/v1/inventory/prizes?ownedOnly=yes')).status).toBe(400);
    expect((await t.http().get('/v1/inventory/prizes?ownedOnly=true')).status).toBe(401);
    // Another tenant's user sees none of them.
    expect(
      (await userGet(t, await givenUser(t, other), '/v1/inventory/prizes?ownedOnly=false').expect(200)).body.items.map(
        (p: { id: string }) => p.id,
      ),
    ).not.toContain(first.id);
  });

  it('shows one prize with its owners, and its supply', async () => {
    const c = await givenCommunity(t, tenant);
    const prize = await givenPrize(t, tenant, { communityId: c.slug, totalSupply: 5, name: 'Jersey' });
    expect(prize.communityId).toBe(c.id);
    const [a, b] = [await givenUser(t, tenant), await givenUser(t, tenant)];
    await award(prize.id, a).expect(201);
    t.clock.advance(1000);
    await award(prize.id, b, { quantity: 2 }).expect(201);
    await award(prize.id, a).expect(201);

    const detail = await userGet(t, b, `/v1/inventory/prizes/${prize.id}`).expect(200);
    expect(detail.body).toMatchObject({
      id: prize.id,
      name: 'Jersey',
      totalSupply: 5,
      awarded: 4,
      remainingSupply: 1,
      ownedQuantity: 2,
      ownerCount: 2,
    });
    expect(detail.body.owners.map((o: { userId: string; quantity: number }) => [o.userId, o.quantity])).toEqual([
      [a.userId, 2],
      [b.userId, 2],
    ]);
    expect((await userGet(t, b, `/v1/inventory/prizes/${prize.id}/supply`).expect(200)).body).toEqual({
      prizeId: prize.id,
      totalSupply: 5,
      awarded: 4,
      remainingSupply: 1,
    });
    const owners = await admin().get(`/v1/admin/prizes/${prize.id}/owners?limit=1`).expect(200);
    expect(owners.body).toMatchObject({ total: 2, hasNextPage: true, items: [{ userId: a.userId, quantity: 2 }] });

    // Unknown, malformed and other tenants' prizes are 404.
    expect((await userGet(t, a, '/v1/inventory/prizes/0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10')).body).toMatchObject({
      code: 40101,
      error: 'prize_not_found',
    });
    expect((await userGet(t, a, '/v1/inventory/prizes/nope/supply')).status).toBe(404);
    expect((await userGet(t, await givenUser(t, other), `/v1/inventory/prizes/${prize.id}`)).status).toBe(404);
    expect(
      (await adminApi(t, other).post(`/v1/admin/prizes/${prize.id}/awards`, { userId: a.userId, reason: 'x', idempotencyKey: 'x' })).status,
    ).toBe(404);
  });

  it('awards through the management API idempotently, notifies, and never beyond the supply', async () => {
    const prize = await givenPrize(t, tenant, { totalSupply: 3 });
    const u = await givenUser(t, tenant);
    const first = await award(prize.id, u, { idempotencyKey: 'once', source: 'event' }).expect(201);
    expect(first.body).toMatchObject({
      prizeId: prize.id,
      userId: u.userId,
      quantity: 1,
      source: 'event',
      ownedQuantity: 1,
      remainingSupply: 2,
      replayed: false,
    });
    const again = await award(prize.id, u, { idempotencyKey: 'once', source: 'event' }).expect(201);
    expect(again.body).toMatchObject({ awardId: first.body.awardId, replayed: true, ownedQuantity: 1, remainingSupply: 2 });
    expect((await award(prize.id, u, { idempotencyKey: 'once', quantity: 2 })).body).toMatchObject({ code: 40103 });
    // A tenant-wide prize's notification is account-wide: it shows in any community's list.
    const anywhere = await givenCommunity(t, tenant);
    const notes = await userGet(t, u, `/v1/user/notifications?containerId=${anywhere.id}`).expect(200);
    expect(notes.body.items.filter((n: { type: string }) => n.type === 'prize_awarded')).toEqual([
      expect.objectContaining({ data: { prizeId: prize.id, quantity: 1 } }),
    ]);

    // 12 concurrent awards for 2 remaining units: exactly 2 succeed.
    const users = await Promise.all(Array.from({ length: 12 }, () => givenUser(t, tenant)));
    const results = await Promise.all(users.map((v) => award(prize.id, v)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 40102)).toBe(true);
    expect((await admin().get(`/v1/admin/prizes/${prize.id}`)).body).toMatchObject({ awarded: 3, remainingSupply: 0 });
    const [{ n }]: { n: number }[] = await t.dataSource.query(
      'SELECT COALESCE(SUM(quantity), 0)::int AS n FROM prize_awards WHERE prize_id = $1',
      [prize.id],
    );
    expect(n).toBe(3);

    expect((await award(prize.id, { userId: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' } as TestUser)).body).toMatchObject({ code: 11004 });
  });

  it('manages prizes: update, supply never below the units awarded, requirements checked', async () => {
    const prize = await givenPrize(t, tenant, { totalSupply: 5 });
    const u = await givenUser(t, tenant);
    await award(prize.id, u, { quantity: 3 }).expect(201);
    expect((await admin().patch(`/v1/admin/prizes/${prize.id}`, { totalSupply: 2 })).body).toMatchObject({ code: 40104 });
    expect((await admin().patch(`/v1/admin/prizes/${prize.id}`, { totalSupply: 3, name: 'Renamed' })).body).toMatchObject({
      name: 'Renamed',
      totalSupply: 3,
      remainingSupply: 0,
    });
    expect((await admin().patch(`/v1/admin/prizes/${prize.id}`, { totalSupply: null })).body).toMatchObject({
      totalSupply: null,
      remainingSupply: null,
    });
    expect(
      (await admin().post('/v1/admin/prizes', { name: 'x', kind: 'physical', requirementIds: ['0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10'] }))
        .body,
    ).toMatchObject({ error: 'invalid_prize' });
    expect((await admin().post('/v1/admin/prizes', { name: 'x', kind: 'trophy' })).status).toBe(400);
    expect((await admin().post('/v1/admin/prizes', { name: 'x', kind: 'physical', communityId: 'nope' })).status).toBe(404);
    expect((await admin().get('/v1/admin/prizes?limit=1')).body).toMatchObject({ limit: 1, hasNextPage: true });
  });

  it('lists the requirements of prizes with the data the user saved, and asks them in the store', async () => {
    const own = await t.givenTenant();
    const c = await givenCommunity(t, own);
    const gems = await givenResourceType(t, own, c.id);
    const address = await givenRequirement(t, own, { kind: 'data', schema: ADDRESS_SCHEMA });
    const email = await givenRequirement(t, own, { kind: 'data', schema: EMAIL_SCHEMA });
    await givenRequirement(t, own, { kind: 'data', schema: EMAIL_SCHEMA }); // used by no prize
    const prize = await givenPrize(t, own, { requirementIds: [address.id, email.id], totalSupply: 10 });
    await givenPrize(t, own, { requirementIds: [address.id] });
    const u = await givenUser(t, own);

    const before = await userGet(t, u, '/v1/inventory/prizes/requirements').expect(200);
    expect(before.body.map((r: { id: string; savedData: unknown }) => [r.id, r.savedData])).toEqual([
      [address.id, null],
      [email.id, null],
    ]);
    expect(before.body[0]).toMatchObject({ kind: 'data', schema: ADDRESS_SCHEMA });

    // A prize sold in the store asks for the prize's requirements too.
    const listing = await givenListing(t, own, {
      communityId: c.id,
      kind: 'prize',
      prizeId: prize.id,
      price: [{ resourceTypeId: gems.id, amount: 1 }],
    });
    expect((await grant(t, own, u.userId, gems.id, 5)).status).toBe(201);
    const refused = await purchase(t, u, listing.id).expect(400);
    expect(refused.body.details.failures.map((f: { requirementId: string }) => f.requirementId)).toEqual([address.id, email.id]);
    const address1 = { addressLine1: '2 Rue Neuve', city: 'Nantes', country: 'FR' };
    await purchase(t, u, listing.id, {
      requirementData: [
        { requirementId: address.id, shouldSave: true, data: address1 },
        { requirementId: email.id, data: { email: 'me@example.com' } },
      ],
    }).expect(201);

    const after = await userGet(t, u, '/v1/inventory/prizes/requirements').expect(200);
    expect(after.body.map((r: { id: string; savedData: unknown }) => [r.id, r.savedData])).toEqual([
      [address.id, address1],
      [email.id, null],
    ]);
    expect(
      (await userGet(t, await givenUser(t, own), '/v1/inventory/prizes/requirements').expect(200)).body.map(
        (r: { savedData: unknown }) => r.savedData,
      ),
    ).toEqual([null, null]);
    expect((await t.http().get('/v1/inventory/prizes/requirements')).status).toBe(401);
  });
});
