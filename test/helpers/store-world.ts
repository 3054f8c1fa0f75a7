import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenCommunity, givenResourceType, givenUser, grant, type TestCommunity, type TestUser } from '../factories/e2e.js';
import { adminApi } from './admin-api.js';
import { givenListing, userGet } from './store.js';
import type { TestApp } from './test-app.js';

/** The store specs' world: a tenant whose community sells for gems and coins, and another tenant. */
export interface StoreWorld {
  tenant: TenantCredentials;
  other: TenantCredentials;
  c: TestCommunity;
  gems: { id: string; slug: string };
  coins: { id: string; slug: string };
}

export async function givenStoreWorld(t: TestApp): Promise<StoreWorld> {
  const tenant = await t.givenTenant();
  const other = await t.givenTenant();
  const c = await givenCommunity(t, tenant);
  const gems = await givenResourceType(t, tenant, c.id, { slug: 'gems' });
  // Global: a scoped type (a quest event's score) is not for sale.
  const coins = await givenResourceType(t, tenant, c.id, { slug: 'coins' });
  return { tenant, other, c, gems, coins };
}

/** The store specs' calls on the world `w()` returns (read when called: the world is made in a beforeAll). */
export function storeWorldApi(t: TestApp, w: () => StoreWorld) {
  return {
    admin: () => adminApi(t, w().tenant),
    /** A user holding `gemAmount` gems (and `coinAmount` coins). */
    fundedUser: async (gemAmount: number, coinAmount = 0): Promise<TestUser> => {
      const { tenant, gems, coins } = w();
      const u = await givenUser(t, tenant);
      if (gemAmount) expect((await grant(t, tenant, u.userId, gems.id, gemAmount)).status).toBe(201);
      if (coinAmount) expect((await grant(t, tenant, u.userId, coins.id, coinAmount)).status).toBe(201);
      return u;
    },
    balances: async (u: TestUser) => {
      const res = await userGet(t, u, `/v1/store/balance?containerId=${w().c.slug}`).expect(200);
      return Object.fromEntries(res.body.resources.map((r: { slug: string; balance: number }) => [r.slug, r.balance]));
    },
    /** A listing selling 5 coins for `price` gems unless told otherwise. */
    gemListing: (fields: Record<string, unknown> = {}) =>
      givenListing(t, w().tenant, {
        communityId: w().c.id,
        kind: 'resource',
        resourceTypeId: w().coins.id,
        quantity: 5,
        price: [{ resourceTypeId: w().gems.id, amount: 10 }],
        ...fields,
      }),
  };
}
