import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serveGrant } from '../../bench/limit/grant.js';
import { servePurchase } from '../../bench/limit/purchase.js';
import { givenItem } from '../factories/e2e.js';
import { purchase } from '../helpers/store.js';
import { givenStoreWorld, storeWorldApi } from '../helpers/store-world.js';
import { LAYERS, portOf } from '../../bench/limit/program.js';
import { AUDIT_BATCH, GRANT, normalized, PURCHASE_ITEM, PURGE_NONCES, RETURNING_TOKEN_LOGIN } from '../../bench/limit/statements.js';
import { NonceService } from '../../src/auth/nonce.service.js';
import { serveTokenLogin } from '../../bench/limit/token-login.js';
import { loginToken } from '../helpers/auth.js';
import { givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { onStatements } from '../helpers/pg-statements.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

const SESSION_SECRET = randomBytes(32).toString('hex');
const ENCRYPTION_KEY = randomBytes(32).toString('hex');

/**
 * The bench's limit programs (bench/limit/, issue 51) do the service's database work and nothing
 * of its own: each sends the statements the service sends for the same request (spaces aside), and
 * what it stores and answers is the service's (its session token opens the service's endpoints).
 * A change to a hot statement fails here until the limit's copy follows.
 */
describe('bench limit programs: the service’s statements, the service’s results', () => {
  const t = useTestApp({ SESSION_SECRET, ENCRYPTION_KEY });

  it('token login: the returning login’s one statement, and a session the service accepts', async () => {
    const tenant = await t.givenTenant();
    const subjectId = `limit-${randomBytes(4).toString('hex')}`;
    const login = (base: string, token: string) =>
      fetch(`${base}/v1/user/auth/providerB/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant-id': tenant.id },
        body: JSON.stringify({ token }),
      });
    const service = await t.app.listen(0, '127.0.0.1');
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    // The first login (the transactional path) creates the identity; the next ones are returning.
    expect((await login(serviceUrl, await loginToken(t, tenant.sharedSecret, { subjectId }))).status).toBe(200);

    const sent: string[] = [];
    const stop = await onStatements(t.dataSource, (sql) => sent.push(sql));
    const returning = await login(serviceUrl, await loginToken(t, tenant.sharedSecret, { subjectId }));
    stop();
    expect(returning.status).toBe(200);
    const logins = sent.filter((s) => s.startsWith('WITH i AS'));
    expect(logins.map(normalized)).toEqual([normalized(RETURNING_TOKEN_LOGIN)]);
    // The purge one login in a hundred runs.
    const purge: string[] = [];
    const stopPurge = await onStatements(t.dataSource, (sql) => purge.push(sql));
    await t.app.get(NonceService).purgeExpired(t.dataSource.manager, new Date());
    stopPurge();
    expect(purge.map(normalized)).toEqual([normalized(PURGE_NONCES)]);

    const limit = await serveTokenLogin({
      pgUrl: t.config.DATABASE_URL!,
      pool: 2,
      port: 0,
      tenantId: tenant.id,
      sharedSecret: tenant.sharedSecret,
      sessionSecret: SESSION_SECRET,
      encryptionKey: ENCRYPTION_KEY,
    });
    try {
      const limitUrl = `http://127.0.0.1:${(limit.server.address() as AddressInfo).port}`;
      const token = await loginToken(t, tenant.sharedSecret, { subjectId });
      const res = await login(limitUrl, token);
      const body = (await res.json()) as { userId: string; sessionToken: string; refreshToken: string };
      const serviceBody = (await returning.json()) as typeof body;
      expect({ status: res.status, userId: body.userId, keys: Object.keys(body).sort() }).toEqual({
        status: 200,
        userId: serviceBody.userId,
        keys: Object.keys(serviceBody).sort(),
      });
      // Its session token and stored refresh token are the service's own.
      const profile = await t.http().get('/v1/user/profile?fields=username').set('Authorization', `Bearer ${body.sessionToken}`);
      expect(profile.status).toBe(200);
      const refreshed = await t
        .http()
        .post('/v1/user/auth/refresh-session')
        .set('X-Tenant-Id', tenant.id)
        .send({ refreshToken: body.refreshToken });
      expect(refreshed.status).toBe(200);
      // The nonce is claimed as the service claims it: the same token again is refused by the service.
      const replay = await login(serviceUrl, token);
      expect(replay.status).toBe(401);
    } finally {
      await limit.close();
    }
  });

  it('grant: the credit’s one statement, and an entry and balance the service reads as its own', async () => {
    const tenant = await t.givenTenant();
    const community = await givenCommunity(t, tenant);
    const xp = await givenResourceType(t, tenant, community.id, { slug: 'xp', name: 'XP', kind: 'global' });
    const user = await givenUser(t, tenant);
    const sent: string[] = [];
    const stop = await onStatements(t.dataSource, (sql) => sent.push(sql));
    const served = await grant(t, tenant, user.userId, xp.id, 2);
    // Its audit entry follows in a batch of its own, 100 ms later.
    await until(
      async () => sent.some((s) => s.startsWith('INSERT INTO admin_audit_log')),
      (v) => v,
    );
    stop();
    expect(served.status).toBe(201);
    expect(sent.filter((s) => s.startsWith('WITH t AS')).map(normalized)).toEqual([normalized(GRANT)]);
    expect(sent.filter((s) => s.startsWith('INSERT INTO admin_audit_log')).map(normalized)).toEqual([normalized(AUDIT_BATCH)]);

    const limit = await serveGrant({ pgUrl: t.config.DATABASE_URL!, pool: 2, port: 0, tenantId: tenant.id, apiKey: tenant.apiKey });
    try {
      const url = `http://127.0.0.1:${(limit.server.address() as AddressInfo).port}/v1/admin/resources/grants`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
        body: JSON.stringify({ userId: user.userId, resourceTypeId: xp.id, amount: 3, reason: 'test', idempotencyKey: 'limit-1' }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect({ status: res.status, keys: Object.keys(body).sort(), balance: body.balance }).toEqual({
        status: 201,
        keys: Object.keys(served.body).sort(),
        balance: 5,
      });
      // The service reads the limit's entry as its own: the same key is a replay of it.
      const replay = await t
        .http()
        .post('/v1/admin/resources/grants')
        .set('X-Api-Key', tenant.apiKey)
        .send({ userId: user.userId, resourceTypeId: xp.id, amount: 3, reason: 'test', idempotencyKey: 'limit-1' });
      expect({ status: replay.status, replayed: replay.body.replayed, entryId: replay.body.entryId, balance: replay.body.balance }).toEqual(
        {
          status: 201,
          replayed: true,
          entryId: body.entryId,
          balance: 5,
        },
      );
    } finally {
      await limit.close();
    }
    // Its audit entry is written as the service writes one (the limit flushes it when it closes,
    // the service's replay follows in its own batch).
    const audited = await until(
      () =>
        t.dataSource.query<unknown[]>(
          `SELECT actor, method, route, status_code FROM admin_audit_log WHERE tenant_id = $1 AND route = '/v1/admin/resources/grants' ORDER BY created_at`,
          [tenant.id],
        ),
      (rows) => rows.length >= 3,
    );
    expect(audited).toHaveLength(3);
    expect(audited[1]).toEqual(audited[0]);
  });

  it('the build-up’s layers serve the same grant, and the validated one refuses what the service refuses', async () => {
    const tenant = await t.givenTenant();
    const community = await givenCommunity(t, tenant);
    const xp = await givenResourceType(t, tenant, community.id, { slug: 'xp', name: 'XP', kind: 'global' });
    const user = await givenUser(t, tenant);
    const answers: Record<string, unknown>[] = [];
    for (const layers of LAYERS) {
      const limit = await serveGrant({
        pgUrl: t.config.DATABASE_URL!,
        pool: 2,
        port: 0,
        tenantId: tenant.id,
        apiKey: tenant.apiKey,
        layers,
      });
      try {
        const post = (body: object) =>
          fetch(`http://127.0.0.1:${portOf(limit)}/v1/admin/resources/grants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
            body: JSON.stringify(body),
          });
        const res = await post({
          userId: user.userId,
          resourceTypeId: xp.id,
          amount: 1,
          reason: 'test',
          idempotencyKey: `layers-${layers}`,
        });
        const body = (await res.json()) as Record<string, unknown>;
        answers.push({ layers, status: res.status, keys: Object.keys(body).sort(), delta: body.delta });
        // A field the DTO does not declare: only the service's ValidationPipe refuses it.
        const extra = await post({
          userId: user.userId,
          resourceTypeId: xp.id,
          amount: 1,
          reason: 'test',
          idempotencyKey: `x-${layers}`,
          admin: true,
        });
        answers.push({ layers, extra: extra.status });
      } finally {
        await limit.close();
      }
    }
    const keys = ['balance', 'createdAt', 'delta', 'earned', 'earnedDelta', 'entryId', 'replayed', 'resourceTypeId', 'userId'];
    expect(answers).toEqual(
      LAYERS.flatMap((layers) => [
        { layers, status: 201, keys, delta: 1 },
        { layers, extra: layers === 'nest-validated' ? 400 : 201 },
      ]),
    );
    const rows = await t.dataSource.query<{ balance: string }[]>('SELECT balance FROM resource_balances WHERE user_id = $1', [user.userId]);
    expect(rows.map((r) => Number(r.balance))).toEqual([LAYERS.length * 2 - 1]);
  });

  it('purchase: the hot listing’s one statement, and a purchase the service replays as its own', async () => {
    const w = await givenStoreWorld(t);
    const api = storeWorldApi(t, () => w);
    const item = await givenItem(t, w.tenant, w.c.id, { supply: 100 });
    const listing = await api.gemListing({ kind: 'item', resourceTypeId: undefined, itemId: item.id, quantity: 1 });
    const u = await api.fundedUser(100);
    // The first purchase reads the listing; the next one is the warm path, one statement.
    await purchase(t, u, listing.id).expect(201);
    const sent: string[] = [];
    const stop = await onStatements(t.dataSource, (sql) => sent.push(sql));
    const served = await purchase(t, u, listing.id).expect(201);
    stop();
    expect(sent.filter((s) => s.startsWith('WITH r AS')).map(normalized)).toEqual([normalized(PURCHASE_ITEM)]);

    const limit = await servePurchase({ pgUrl: t.config.DATABASE_URL!, pool: 2, port: 0, sessionSecret: SESSION_SECRET });
    try {
      const buy = (auth: string, nonce: string) =>
        fetch(`http://127.0.0.1:${portOf(limit)}/v1/store/purchase/${listing.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ nonce }),
        });
      // Another tenant's player does not find the listing, and that miss is not kept for its tenant.
      const stranger = await givenUser(t, w.other);
      expect((await buy(stranger.auth, 'stranger-1')).status).toBe(404);
      const res = await buy(u.auth, 'limit-order-1');
      const body = (await res.json()) as Record<string, unknown>;
      const shape = (b: Record<string, unknown>) => ({ ...b, id: 'P', nonce: 'N', createdAt: 'T' });
      expect({ status: res.status, body: shape(body) }).toEqual({ status: 201, body: shape(served.body as Record<string, unknown>) });
      // The service reads the limit's purchase as its own: the same nonce is a replay of it.
      const replay = await purchase(t, u, listing.id, { nonce: 'limit-order-1' }).expect(201);
      expect({ replayed: replay.body.replayed, id: replay.body.id }).toEqual({ replayed: true, id: body.id });
    } finally {
      await limit.close();
    }
    // Three purchases at 10 gems, each recorded, debited, granted and notified as the service does.
    expect(await api.balances(u)).toMatchObject({ gems: 70 });
    const counts = await t.dataSource.query<{ purchases: number; held: number; notices: number }[]>(
      `SELECT (SELECT count(*) FROM store_purchases WHERE user_id = $1)::int AS purchases,
              (SELECT COALESCE(SUM(quantity), 0) FROM user_items WHERE user_id = $1)::int AS held,
              (SELECT count(*) FROM notifications WHERE user_id = $1 AND type IN ('purchase_completed', 'item_granted'))::int AS notices`,
      [u.userId],
    );
    expect(counts).toEqual([{ purchases: 3, held: 3, notices: 6 }]);
  });
});
