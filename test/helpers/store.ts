import type { TestUser } from '../factories/e2e.js';
import { nonce } from '../factories/inputs.js';
import type { TestApp } from './test-app.js';

// The e2e factories live in test/factories/e2e.ts; these names stay for the specs that import them here.
export { givenItem, givenListing, givenPrize, givenRequirement } from '../factories/e2e.js';
export { ADDRESS_SCHEMA, EMAIL_SCHEMA } from '../factories/inputs.js';

/** POST /v1/store/purchase/{listingId} as `user`. */
export function purchase(t: TestApp, user: TestUser, listingId: string, body: Record<string, unknown> = {}, query = '') {
  return t
    .http()
    .post(`/v1/store/purchase/${listingId}${query}`)
    .set('Authorization', user.auth)
    .send({ nonce: nonce(), ...body });
}

/** GET as `user`. */
export function userGet(t: TestApp, user: TestUser, path: string) {
  return t.http().get(path).set('Authorization', user.auth);
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
