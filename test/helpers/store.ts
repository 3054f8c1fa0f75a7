import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi } from './communities.js';
import type { TestUser } from './factories.js';
import type { TestApp } from './test-app.js';

let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

const expectStatus = (res: { status: number; body: unknown }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies of the management API, read field by field by the tests
};

/** The JSON schema of a shipping address (the interface's Address shape, lines 1 and city/country required). */
export const ADDRESS_SCHEMA = {
  type: 'object',
  required: ['addressLine1', 'city', 'country'],
  additionalProperties: false,
  properties: {
    addressId: { type: 'string', maxLength: 64 },
    addressLine1: { type: 'string', minLength: 1, maxLength: 200 },
    addressLine2: { type: 'string', maxLength: 200 },
    city: { type: 'string', minLength: 1, maxLength: 100 },
    postalCode: { type: 'string', maxLength: 32 },
    country: { type: 'string', minLength: 2, maxLength: 64 },
  },
};

export const EMAIL_SCHEMA = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: { type: 'string', format: 'email', maxLength: 254 } },
};

/** A requirement definition created through the management API. */
export async function givenRequirement(
  t: TestApp,
  tenant: TenantCredentials,
  fields: Record<string, unknown> = { kind: 'data', schema: ADDRESS_SCHEMA },
) {
  return expectStatus(
    await adminApi(t, tenant).post('/v1/admin/store/requirements', { key: unique('req'), name: 'Requirement', ...fields }),
    201,
    'create requirement',
  );
}

/** A listing created through the management API (a resource listing unless told). */
export async function givenListing(t: TestApp, tenant: TenantCredentials, fields: Record<string, unknown>) {
  return expectStatus(
    await adminApi(t, tenant).post('/v1/admin/store/listings', { name: unique('listing'), ...fields }),
    201,
    'create listing',
  );
}

/** A prize created through the management API. */
export async function givenPrize(t: TestApp, tenant: TenantCredentials, fields: Record<string, unknown> = {}) {
  return expectStatus(
    await adminApi(t, tenant).post('/v1/admin/prizes', { name: unique('prize'), kind: 'physical', ...fields }),
    201,
    'create prize',
  );
}

/** POST /v1/store/purchase/{listingId} as `user`. */
export function purchase(t: TestApp, user: TestUser, listingId: string, body: Record<string, unknown> = {}, query = '') {
  return t
    .http()
    .post(`/v1/store/purchase/${listingId}${query}`)
    .set('Authorization', user.auth)
    .send({ nonce: unique('nonce'), ...body });
}

/** GET as `user`. */
export function userGet(t: TestApp, user: TestUser, path: string) {
  return t.http().get(path).set('Authorization', user.auth);
}

/** An inventory slot and item of the community, through the management API. */
export async function givenItem(t: TestApp, tenant: TenantCredentials, communityId: string, fields: Record<string, unknown> = {}) {
  const admin = adminApi(t, tenant);
  const slot = expectStatus(
    await admin.post('/v1/admin/inventory/slots', { communityId, key: unique('slot'), name: 'Slot' }),
    201,
    'create slot',
  );
  return expectStatus(
    await admin.post('/v1/admin/inventory/items', { communityId, slotId: slot.id, name: unique('item').slice(0, 40), ...fields }),
    201,
    'create item',
  );
}

/** Σ ledger deltas per (user, resource type) that differ from the balances, for the given types. */
export function ledgerMismatches(t: TestApp, resourceTypeIds: string[]): Promise<unknown[]> {
  return t.dataSource.query(
    `SELECT b.user_id, b.resource_type_id FROM resource_balances b
     LEFT JOIN (SELECT user_id, resource_type_id, SUM(delta) AS d, SUM(earned_delta) AS e FROM resource_ledger GROUP BY 1, 2) l
       ON l.user_id = b.user_id AND l.resource_type_id = b.resource_type_id
     WHERE b.resource_type_id = ANY($1::uuid[]) AND (b.balance <> COALESCE(l.d, 0) OR b.earned <> COALESCE(l.e, 0))`,
    [resourceTypeIds],
  );
}

/**
 * The outbox events of a purchase (by its id: `purchaseId` or `reference`), by type, with what
 * differs between two purchases named: `P` the purchase, `L` the listing `listingId`, `G` the
 * grant, `B` a balance.
 */
export async function purchaseEvents(t: TestApp, tenantId: string, purchaseId: string, listingId: string) {
  const rows: { type: string; payload: Record<string, unknown> }[] = await t.dataSource.query(
    `SELECT type, payload FROM outbox_events
      WHERE tenant_id = $1 AND (payload->>'purchaseId' = $2 OR payload->>'reference' = $2) ORDER BY type`,
    [tenantId, purchaseId],
  );
  return rows.map(({ type, payload }) => ({
    type,
    payload: {
      ...payload,
      purchaseId: payload.purchaseId && 'P',
      reference: payload.reference && 'P',
      listingId: payload.listingId && (payload.listingId === listingId ? 'L' : payload.listingId),
      grantId: payload.grantId && 'G',
      balance: payload.balance && 'B',
    },
  }));
}

/** Runs `tasks` with at most `width` in flight; results in task order. */
export async function inFlight<T>(width: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}
