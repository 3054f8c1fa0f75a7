import { CompactEncrypt, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import type { BaseWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { ledgerInvariants } from '../helpers/ledger-invariants.js';
import type { AppInstance, HttpResult } from '../helpers/processes.js';

/** RELIABILITY_LONG=1 (npm run test:reliability) runs the long variants. */
export const LONG = process.env.RELIABILITY_LONG === '1';
export const scale = (short: number, long: number) => (LONG ? long : short);

/** Where `report` keeps each part's figures of the last run (git-ignored), for `npm run reliability:table`. */
export const RESULTS_DIR = 'test/reliability/results';

/**
 * Prints one part's figures, and keeps them in RESULTS_DIR/<short|long>/<part>.json, from which
 * `npm run reliability:table` writes the summary table of docs/reliability.md.
 */
export function report(part: string, figures: Record<string, unknown>): void {
  const dir = join(RESULTS_DIR, LONG ? 'long' : 'short');
  mkdirSync(dir, { recursive: true });
  const file = `${part
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()}.json`;
  writeFileSync(join(dir, file), `${JSON.stringify({ part, at: new Date().toISOString(), figures }, null, 2)}\n`);
  // eslint-disable-next-line no-console
  console.log(
    `[reliability] ${part} (${LONG ? 'long' : 'short'} run)\n${Object.entries(figures)
      .map(([k, v]) => `  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('\n')}`,
  );
}

let n = 0;
export const unique = (prefix: string) => `${prefix}${++n}${randomBytes(3).toString('hex')}`;

/** Runs `tasks` with at most `width` in flight. */
export async function pool<T>(width: number, count: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

export function countBy<T>(items: T[], key: (t: T) => string | number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[String(key(it))] = (out[String(key(it))] ?? 0) + 1;
  return out;
}

export interface User {
  userId: string;
  username: string;
  password: string;
  sessionToken: string;
  refreshToken: string;
  auth: string;
}

export async function register(app: AppInstance, tenant: TenantCredentials, username = unique('user_')): Promise<User> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const r = await app.call('POST', '/v1/user/register/password', { headers: { 'X-Tenant-Id': tenant.id }, body: { username, password } });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...r.body, username, password, auth: `Bearer ${r.body.sessionToken}` };
}

export const asUser = (u: User) => ({ Authorization: u.auth });
export const asAdmin = (t: TenantCredentials) => ({ 'X-Api-Key': t.apiKey });

export function expectOk(r: HttpResult, status: number, what: string): HttpResult {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

export async function givenCommunity(app: AppInstance, tenant: TenantCredentials): Promise<{ id: string; slug: string }> {
  const r = await app.call('POST', '/v1/admin/communities', {
    headers: asAdmin(tenant),
    body: { slug: unique('c-'), name: 'Reliability community' },
  });
  return expectOk(r, 201, 'create community').body;
}

export async function givenResourceType(
  app: AppInstance,
  tenant: TenantCredentials,
  communityId: string,
  kind: 'global' | 'scoped' = 'global',
): Promise<{ id: string; slug: string }> {
  const r = await app.call('POST', '/v1/admin/resources/types', {
    headers: asAdmin(tenant),
    body: { communityId, slug: unique('r-'), name: 'XP', kind },
  });
  return expectOk(r, 201, 'create resource type').body;
}

export function grant(
  app: AppInstance,
  tenant: TenantCredentials,
  userId: string,
  resourceTypeId: string,
  amount: number,
  idempotencyKey = unique('k-'),
) {
  return app.call('POST', '/v1/admin/resources/grants', {
    headers: asAdmin(tenant),
    body: { userId, resourceTypeId, amount, reason: 'reliability', idempotencyKey },
  });
}

export function deduct(
  app: AppInstance,
  tenant: TenantCredentials,
  userId: string,
  resourceTypeId: string,
  amount: number,
  idempotencyKey = unique('d-'),
) {
  return app.call('POST', '/v1/admin/resources/deductions', {
    headers: asAdmin(tenant),
    body: { userId, resourceTypeId, amount, reason: 'reliability', idempotencyKey },
  });
}

/** The JWE a consuming backend sends (dir + A256GCM with the tenant secret), on the real clock. */
export async function loginToken(
  sharedSecretHex: string,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = { alg: 'dir', enc: 'A256GCM' },
  key?: Uint8Array,
): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const idToken = await new SignJWT({
    iss: 'https://accounts.provider-a.test',
    aud: 'client-a',
    sub: `oauth-${randomBytes(4).toString('hex')}`,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(randomBytes(32));
  const payload: Record<string, unknown> = {
    _nonce: randomBytes(8).toString('hex'),
    subjectId: `sub-${randomBytes(6).toString('hex')}`,
    handle: 'player',
    accessToken: `provider-access-${randomBytes(6).toString('hex')}`,
    refreshToken: `provider-refresh-${randomBytes(6).toString('hex')}`,
    idToken,
    iat,
    exp: iat + 300,
    ...claims,
  };
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader(header as { alg: string; enc: string })
    .encrypt(key ?? new Uint8Array(Buffer.from(sharedSecretHex, 'hex')));
}

export const SIWE_ORIGIN = 'https://game.example.com';

/** A signed SIWE login body (the tenant must allow SIWE_ORIGIN). */
export async function siweBody(
  wallet: BaseWallet,
  nonce = randomBytes(8).toString('hex'),
): Promise<{ message: string; signature: string }> {
  const message = new SiweMessage({
    domain: 'game.example.com',
    address: wallet.address,
    statement: 'Sign in to the game',
    uri: `${SIWE_ORIGIN}/login`,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  return { message, signature: await wallet.signMessage(message) };
}

/** Row counts of every table of the public schema (exact). */
export async function rowCounts(sql: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await sql.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'typeorm_metadata') ORDER BY 1`,
  );
  if (rows.length === 0) return {};
  const union = rows.map((r) => `SELECT '${r.table_name}' AS t, count(*)::int AS n FROM "${r.table_name}"`).join(' UNION ALL ');
  const counts = await sql.query<{ t: string; n: number }>(union);
  return Object.fromEntries(counts.rows.map((r) => [r.t, r.n]));
}

/** Σ ledger = balance, Σ earned = earned, 0 ≤ balance ≤ earned, for every (user, resource). */
export function ledgerInvariantViolations(sql: pg.Pool): Promise<{ mismatched: number; negative: number; balances: number }> {
  return ledgerInvariants(async (text) => (await sql.query(text)).rows);
}

export async function givenItem(
  app: AppInstance,
  tenant: TenantCredentials,
  communityId: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; slotId: string }> {
  const slot = expectOk(
    await app.call('POST', '/v1/admin/inventory/slots', {
      headers: asAdmin(tenant),
      body: { communityId, key: unique('slot-'), name: 'Slot' },
    }),
    201,
    'create slot',
  ).body;
  return expectOk(
    await app.call('POST', '/v1/admin/inventory/items', {
      headers: asAdmin(tenant),
      body: { communityId, slotId: slot.id, name: unique('item-'), ...fields },
    }),
    201,
    'create item',
  ).body;
}

export async function givenPrize(
  app: AppInstance,
  tenant: TenantCredentials,
  fields: Record<string, unknown> = {},
): Promise<{ id: string }> {
  return expectOk(
    await app.call('POST', '/v1/admin/prizes', { headers: asAdmin(tenant), body: { name: unique('prize-'), kind: 'physical', ...fields } }),
    201,
    'create prize',
  ).body;
}

export async function givenListing(
  app: AppInstance,
  tenant: TenantCredentials,
  fields: Record<string, unknown>,
): Promise<{ id: string; price: { resourceTypeId: string; amount: number }[] }> {
  return expectOk(
    await app.call('POST', '/v1/admin/store/listings', { headers: asAdmin(tenant), body: { name: unique('listing-'), ...fields } }),
    201,
    'create listing',
  ).body;
}

export function purchase(app: AppInstance, user: User, listingId: string, nonce: string) {
  return app.call('POST', `/v1/store/purchase/${listingId}`, { headers: asUser(user), body: { nonce } });
}

/**
 * The store's invariants, read from the database. Every count must be 0:
 * - `ledgerMismatched`/`negativeBalances`: Σ ledger = balance and 0 ≤ balance ≤ earned for every user;
 * - `purchasesWithoutOneDebit`: every purchase debited exactly once per price component, no debit without a purchase;
 * - `duplicateNonces`: one purchase per (user, nonce);
 * - `listingSoldMismatch`/`listingOversold`: units sold (Σ of the listing's supply shards) = the
 *   purchases of the listing, within its supply; every shard within its cap and the caps adding up
 *   to the supply (`shardCapsMismatch`); the `sold` column (a summary folded after the commits)
 *   never above the shards (`summariesAhead`);
 * - `itemsOversold`/`itemGrantMismatch`, `prizesOversold`/`prizeAwardMismatch`: supplies and their
 *   ledgers agree (an item's units granted: Σ of its shards, with the same shard rules).
 */
export async function storeInvariants(sql: pg.Pool): Promise<Record<string, number>> {
  const ledger = await ledgerInvariantViolations(sql);
  const one = async (q: string) => Number((await sql.query<{ n: string }>(q)).rows[0].n);
  return {
    ledgerMismatched: ledger.mismatched,
    negativeBalances: ledger.negative,
    purchasesWithoutOneDebit: await one(`
      SELECT count(*) AS n FROM (
        SELECT p.id FROM store_purchases p
        LEFT JOIN resource_ledger l ON l.reference = p.id::text AND l.reason = 'store_purchase' AND l.delta < 0
        GROUP BY p.id, p.price HAVING count(l.id) <> jsonb_array_length(p.price::jsonb)
        UNION ALL
        SELECT l.id FROM resource_ledger l LEFT JOIN store_purchases p ON p.id::text = l.reference
        WHERE l.reason = 'store_purchase' AND l.delta < 0 AND p.id IS NULL
      ) x`),
    duplicateNonces: await one(
      `SELECT count(*) AS n FROM (SELECT 1 FROM store_purchases GROUP BY tenant_id, user_id, nonce HAVING count(*) > 1) x`,
    ),
    listingSoldMismatch: await one(
      `SELECT count(*) AS n FROM store_listings s
       WHERE (SELECT coalesce(sum(sold), 0) FROM store_listing_shards h WHERE h.listing_id = s.id) <> (SELECT count(*) FROM store_purchases p WHERE p.listing_id = s.id)`,
    ),
    listingOversold: await one(
      `SELECT count(*) AS n FROM (SELECT l.total_supply, sum(h.sold) AS sold FROM store_listings l JOIN store_listing_shards h ON h.listing_id = l.id GROUP BY l.id) x
       WHERE sold < 0 OR sold > coalesce(total_supply, sold)`,
    ),
    itemsOversold: await one(
      `SELECT count(*) AS n FROM (SELECT i.supply, sum(h.granted) AS granted FROM inventory_items i JOIN inventory_item_shards h ON h.item_id = i.id GROUP BY i.id) x
       WHERE granted < 0 OR granted > coalesce(supply, granted)`,
    ),
    itemGrantMismatch: await one(
      `SELECT count(*) AS n FROM inventory_items i
       WHERE (SELECT coalesce(sum(granted), 0) FROM inventory_item_shards h WHERE h.item_id = i.id) <> coalesce((SELECT sum(quantity) FROM item_grants g WHERE g.item_id = i.id), 0)`,
    ),
    shardCapsMismatch: await one(
      `SELECT count(*) AS n FROM (
         SELECT l.id FROM store_listings l LEFT JOIN store_listing_shards h ON h.listing_id = l.id GROUP BY l.id, l.total_supply
         HAVING count(h.shard) <> 16 OR sum(h.cap) IS DISTINCT FROM l.total_supply OR bool_or(h.sold > h.cap)
         UNION ALL
         SELECT i.id FROM inventory_items i LEFT JOIN inventory_item_shards h ON h.item_id = i.id GROUP BY i.id, i.supply
         HAVING count(h.shard) <> 16 OR sum(h.cap) IS DISTINCT FROM i.supply OR bool_or(h.granted > h.cap)) x`,
    ),
    summariesAhead: await one(
      `SELECT (SELECT count(*) FROM store_listings l WHERE l.sold > (SELECT coalesce(sum(sold), 0) FROM store_listing_shards h WHERE h.listing_id = l.id))
            + (SELECT count(*) FROM inventory_items i WHERE i.granted > (SELECT coalesce(sum(granted), 0) FROM inventory_item_shards h WHERE h.item_id = i.id)) AS n`,
    ),
    userItemMismatch: await one(
      `SELECT count(*) AS n FROM user_items u WHERE u.quantity <> (SELECT sum(quantity) FROM item_grants g WHERE g.item_id = u.item_id AND g.user_id = u.user_id)`,
    ),
    prizesOversold: await one(`SELECT count(*) AS n FROM prizes WHERE awarded < 0 OR awarded > coalesce(total_supply, awarded)`),
    prizeAwardMismatch: await one(
      `SELECT count(*) AS n FROM prizes z WHERE z.awarded <> coalesce((SELECT sum(quantity) FROM prize_awards a WHERE a.prize_id = z.id), 0)`,
    ),
  };
}
