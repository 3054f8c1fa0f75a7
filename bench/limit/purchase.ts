/**
 * The limit of the purchase of a hot listing (issue 51, goal L3): the cheapest Node program that
 * does the service's database work for `POST /v1/store/purchase/{listingId}` on an item listing
 * without requirements. Plain node:http, one pg Pool per process, node:crypto for the session
 * token; the same one statement (bench/limit/statements.ts) with the same parameters, at most
 * ⌈pool/2⌉ purchases of one listing at once per process (the service's HotRows), and the same
 * answer. The listing and its item are read once and kept, as the service keeps them for
 * READ_CACHE_MS; the supply folds, the cache bus and the live notifications' NOTIFYs that follow a
 * purchase are left out, as the grant's limit leaves out the bus.
 *
 * Started by the bench: `PORT=... WORKERS=n POOL=m PG_URL=... SESSION_SECRET=... node
 * dist/bench/limit/purchase.js`. Held to the service by test/e2e/bench-limit.e2e-spec.ts.
 */
import { Semaphore } from 'async-mutex';
import { createHash, createHmac, createSecretKey, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import { answerOf, type Answer, type Layers, layersFrom, listen, runAsProgram, type Served } from './program.js';
import { PURCHASE_ITEM } from './statements.js';

/** The supply shards of a listing and of an item (`LISTING_SHARDS`, `ITEM_SHARDS`). */
const SHARDS = 16;
const PATH = /^\/v1\/store\/purchase\/([0-9a-f-]{36})$/;
const REFUSAL = /^store_purchase_item: ([a-z_]+)$/;

export interface PurchaseLimit {
  pgUrl: string;
  pool: number;
  port: number;
  /** The service's SESSION_SECRET: its session tokens are the ones the limit accepts. */
  sessionSecret: string;
  layers?: Layers;
}

interface Target {
  name: string;
  communityId: string;
  quantity: number;
  price: { resourceTypeId: string; amount: number }[];
  item: { id: string; name: string; slotId: string; communityId: string };
}

/** One process of the limit, listening on 127.0.0.1; `close` ends its server and pool. */
export function servePurchase(o: PurchaseLimit): Promise<Served> {
  const pool = new pg.Pool({ connectionString: o.pgUrl, max: o.pool });
  const sessionKey = createSecretKey(Buffer.from(o.sessionSecret, 'utf8'));
  const targets = new Map<string, Promise<Target | null>>();
  const gates = new Map<string, Semaphore>();
  const hot = Math.max(1, Math.ceil(o.pool / 2));

  /** The session's claims when its HS256 signature, audience and expiry hold. */
  const session = (authorization: string | undefined): { sub: string; tid: string } | null => {
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const [header, payload, signature] = token.split('.');
    if (!signature) return null;
    const expected = createHmac('sha256', sessionKey).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      sub?: string;
      tid?: string;
      exp?: number;
      aud?: string;
    };
    if (claims.aud !== 'cgs:session' || !claims.sub || !claims.tid || (claims.exp ?? 0) * 1000 < Date.now()) return null;
    return { sub: claims.sub, tid: claims.tid };
  };

  /** The tenant's item listing, read once; a miss or a failed read is not kept (ids come from clients). */
  const targetOf = (tenantId: string, listingId: string): Promise<Target | null> => {
    const key = `${tenantId}:${listingId}`;
    let t = targets.get(key);
    if (!t) {
      t = pool
        .query<{
          name: string;
          community_id: string;
          quantity: number;
          price: Target['price'];
          item_id: string;
          item_name: string;
          slot_id: string;
          item_community: string;
        }>(
          `SELECT l.name, l.community_id, l.quantity, l.price, i.id AS item_id, i.name AS item_name, i.slot_id, i.community_id AS item_community
             FROM store_listings l JOIN inventory_items i ON i.id = l.item_id WHERE l.id = $1 AND l.tenant_id = $2 AND l.kind = 'item'`,
          [listingId, tenantId],
        )
        .then(({ rows: [r] }) =>
          r
            ? {
                name: r.name,
                communityId: r.community_id,
                quantity: r.quantity,
                price: r.price,
                item: { id: r.item_id, name: r.item_name, slotId: r.slot_id, communityId: r.item_community },
              }
            : null,
        );
      targets.set(key, t);
      t.then(
        (found) => found ?? targets.delete(key),
        () => targets.delete(key),
      );
    }
    return t;
  };

  const purchase = async (headers: IncomingHttpHeaders, body: unknown, path: string): Promise<Answer> => {
    const claims = session(headers.authorization);
    if (!claims) return answerOf(401, { message: 'GENERIC_UNAUTHORIZED' });
    const nonce = typeof body === 'object' && body !== null ? (body as { nonce?: unknown }).nonce : undefined;
    const listingId = PATH.exec(path)?.[1];
    if (typeof nonce !== 'string' || !listingId) return answerOf(400, { message: 'generic_client_error' });
    const target = await targetOf(claims.tid, listingId);
    if (!target) return answerOf(404, { message: 'not found' });
    const { tid: tenantId, sub: userId } = claims;
    const purchaseId = randomUUID();
    const now = new Date();
    const at = now.toISOString();
    const { item, price } = target;
    const quantity = target.quantity;
    const notices = [
      {
        community_id: target.communityId,
        type: 'purchase_completed',
        title: `You bought ${target.name}`,
        data: { purchaseId, listingId },
        created_at: at,
      },
      {
        community_id: item.communityId,
        type: 'item_granted',
        title: quantity === 1 ? `You received ${item.name}` : `You received ${quantity} × ${item.name}`,
        data: { itemId: item.id, slotId: item.slotId, quantity },
        created_at: at,
      },
    ];
    const event = (type: string, payload: object) => ({
      id: randomUUID(),
      tenant_id: tenantId,
      type,
      version: 1,
      occurred_at: at,
      payload,
    });
    const events = [
      event('inventory.item_granted', {
        grantId: '',
        itemId: item.id,
        communityId: item.communityId,
        userId,
        quantity,
        reason: 'store_purchase',
        reference: purchaseId,
      }),
      ...price.map((c) =>
        event('resource.debited', {
          userId,
          resourceTypeId: c.resourceTypeId,
          kind: 'global',
          amount: c.amount,
          balance: 0,
          reason: 'store_purchase',
          reference: purchaseId,
        }),
      ),
      event('store.purchase_completed', {
        purchaseId,
        listingId,
        communityId: target.communityId,
        userId,
        kind: 'item',
        itemId: item.id,
        prizeId: null,
        resourceTypeId: null,
        quantity,
        price,
      }),
    ];
    const fingerprint = createHash('sha256').update(`${listingId}\n[]`).digest('hex');
    let gate = gates.get(listingId);
    if (!gate) gates.set(listingId, (gate = new Semaphore(hot)));
    type Bought = { created_at: Date | null; community_id: string; item_id: string; quantity: number; price: Target['price'] };
    let row: Bought;
    try {
      row = await gate.runExclusive(async () => {
        const { rows } = await pool.query<Bought>({
          name: 'purchase-item',
          text: PURCHASE_ITEM,
          values: [
            tenantId,
            userId,
            listingId,
            purchaseId,
            nonce,
            fingerprint,
            now,
            randomInt(SHARDS),
            randomInt(SHARDS),
            JSON.stringify(notices),
            JSON.stringify(price),
            JSON.stringify(events),
            false,
          ],
        });
        return rows[0];
      });
    } catch (e) {
      const refusal = REFUSAL.exec((e as Error).message)?.[1];
      if (refusal) return answerOf(409, { message: refusal });
      throw e;
    }
    // A taken nonce is the service's replay path (more statements), outside this limit: the bench sends fresh nonces.
    if (!row.created_at) return answerOf(501, { message: 'replay: not part of the limit' });
    return answerOf(201, {
      id: purchaseId,
      listingId,
      listingName: target.name,
      communityId: row.community_id,
      nonce,
      kind: 'item',
      itemId: row.item_id,
      prizeId: null,
      resourceTypeId: null,
      quantity: row.quantity,
      price: row.price,
      createdAt: row.created_at,
      replayed: false,
    });
  };

  const route = {
    method: 'POST' as const,
    path: '/v1/store/purchase/:listingId',
    matches: (path: string) => PATH.test(path),
    dto: async () => (await import('../../src/store/dto/purchase.dto.js')).PurchaseBodyDto,
  };
  return listen(o.port, route, purchase, () => pool.end(), o.layers);
}

await runAsProgram(import.meta.url, (env) =>
  servePurchase({
    pgUrl: env.PG_URL!,
    pool: Number(env.POOL ?? 10),
    port: Number(env.PORT ?? 3996),
    sessionSecret: env.SESSION_SECRET!,
    layers: layersFrom(env),
  }),
);
