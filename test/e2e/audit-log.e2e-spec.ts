import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { AuditLogWriter } from '../../src/audit/audit-log.writer.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity } from '../helpers/communities.js';
import { backendPid, waitingOn } from '../helpers/pg-locks.js';
import { listening } from '../helpers/sse.js';
import { useTestApp } from '../helpers/test-app.js';

interface Entry {
  id: string;
  actor: string;
  method: string;
  route: string;
  target: Record<string, string>;
  body: Record<string, unknown> | null;
  statusCode: number;
  outcome: string | null;
  aborted: boolean;
  createdAt: string;
}

describe('Management audit log', () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  let tenant: TenantCredentials;
  let other: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    other = await t.givenTenant();
  });

  const actorOf = (c: TenantCredentials) => `api-key:${createHash('sha256').update(c.apiKey).digest('hex').slice(0, 12)}`;

  /** The entries, once the writes that came before are in the table (they are written after the response). */
  async function log(c: TenantCredentials, query = ''): Promise<{ items: Entry[]; total: number; hasNextPage: boolean; status: number }> {
    // 'close' of a response comes just after supertest has read it: let it pass, then write.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await t.app.get(AuditLogWriter).flush();
    const res = await adminApi(t, c).get(`/v1/admin/audit-log${query}`);
    return { ...(res.body as { items: Entry[]; total: number; hasNextPage: boolean }), status: res.status };
  }

  it('records a create, an update and a refused create with route templates, status codes and actor; GETs are not recorded', async () => {
    const api = adminApi(t, tenant);
    t.clock.advance(60_000);
    const created = await api.post('/v1/admin/communities', { slug: 'audit-one', name: 'Audit One' }).expect(201);
    t.clock.advance(60_000);
    await api.patch(`/v1/admin/communities/${created.body.id}`, { name: 'Audit One bis' }).expect(200);
    t.clock.advance(60_000);
    // Refused by validation (unknown field), after the key check: recorded, its secret-named field redacted.
    await api.post('/v1/admin/communities', { slug: 'audit-two', name: 'Audit Two', apiKey: tenant.apiKey }).expect(400);
    await api.get('/v1/admin/communities').expect(200);
    await api.get(`/v1/admin/communities/${created.body.id}`).expect(200);

    const page = await log(tenant);
    expect(page.status).toBe(200);
    expect(page.total).toBe(3);
    const [refused, updated, create] = page.items;
    expect(create).toMatchObject({
      actor: actorOf(tenant),
      method: 'POST',
      route: '/v1/admin/communities',
      target: {},
      body: { slug: 'audit-one', name: 'Audit One' },
      statusCode: 201,
      outcome: created.body.id,
      aborted: false,
    });
    expect(updated).toMatchObject({
      method: 'PATCH',
      route: '/v1/admin/communities/:communityId',
      target: { communityId: created.body.id },
      body: { name: 'Audit One bis' },
      statusCode: 200,
      outcome: created.body.id,
    });
    expect(refused).toMatchObject({
      method: 'POST',
      route: '/v1/admin/communities',
      body: { slug: 'audit-two', name: 'Audit Two', apiKey: '[redacted]' },
      statusCode: 400,
      outcome: null,
    });
    expect(JSON.stringify(page.items)).not.toContain(tenant.apiKey);
    expect(new Date(refused.createdAt).getTime()).toBeGreaterThan(new Date(updated.createdAt).getTime());
  });

  it('keeps no webhook secret: the one a subscription answers with is in no entry', async () => {
    const sub = await adminApi(t, tenant)
      .post('/v1/admin/webhooks/subscriptions', { url: 'http://127.0.0.1:9/hook', eventTypes: ['*'] })
      .expect(201);
    const page = await log(tenant, '?route=/v1/admin/webhooks');
    expect(page.items).toEqual([
      expect.objectContaining({ route: '/v1/admin/webhooks/subscriptions', statusCode: 201, outcome: sub.body.id }),
    ]);
    expect(JSON.stringify(page.items)).not.toContain(sub.body.secret as string);
  });

  it('pages and filters by route prefix, method, actor and time', async () => {
    const all = await log(tenant, '?limit=2');
    expect(all.total).toBe(4);
    expect(all.items).toHaveLength(2);
    expect(all.hasNextPage).toBe(true);
    const second = await log(tenant, '?limit=2&page=2');
    expect(second.items).toHaveLength(2);
    expect(second.hasNextPage).toBe(false);
    expect(new Set([...all.items, ...second.items].map((e) => e.id)).size).toBe(4);

    expect((await log(tenant, '?method=PATCH')).items.map((e) => e.route)).toEqual(['/v1/admin/communities/:communityId']);
    expect((await log(tenant, '?route=/v1/admin/communities/')).total).toBe(1);
    expect((await log(tenant, '?route=/v1/admin/communities')).total).toBe(3);
    // A LIKE wildcard in the prefix is taken literally.
    expect((await log(tenant, '?route=/v1/admin/%25')).total).toBe(0);
    expect((await log(tenant, `?actor=${actorOf(tenant)}`)).total).toBe(4);
    expect((await log(tenant, '?actor=api-key:000000000000')).total).toBe(0);

    const [, , , oldest] = [...all.items, ...second.items];
    const from = new Date(new Date(oldest.createdAt).getTime() + 1).toISOString();
    expect((await log(tenant, `?from=${from}`)).total).toBe(3);
    expect((await log(tenant, `?to=${from}`)).items.map((e) => e.id)).toEqual([oldest.id]);
  });

  it('refuses bad filters with 400', async () => {
    const api = adminApi(t, tenant);
    for (const q of ['?method=GET', '?route=/v1/user/', '?from=yesterday', '?from=-271821-04-20T00:00:00.000Z', '?limit=101', '?nope=1']) {
      const res = await api.get(`/v1/admin/audit-log${q}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('generic_client_error');
    }
  });

  it('shows a tenant only its own entries; a request with a bad key is not recorded', async () => {
    await t.http().post('/v1/admin/communities').set('X-Api-Key', 'cgs_key_wrong').send({ slug: 'x', name: 'x' }).expect(401);
    expect((await log(other)).total).toBe(0);
    await adminApi(t, other).post('/v1/admin/communities', { slug: 'audit-other', name: 'Other' }).expect(201);
    const mine = await log(other);
    expect(mine.items).toEqual([expect.objectContaining({ actor: actorOf(other), route: '/v1/admin/communities', statusCode: 201 })]);
    expect((await log(tenant)).total).toBe(4);
  });

  it('keeps the entries of a failed write and writes them, once, when the database takes them again', async () => {
    const c = await t.givenTenant();
    const writer = t.app.get(AuditLogWriter);
    await log(c); // nothing queued from the tests before
    // The table away: every insert fails, as while the database restarts.
    await t.dataSource.query('ALTER TABLE admin_audit_log RENAME TO admin_audit_log_away');
    try {
      await adminApi(t, c).post('/v1/admin/communities', { slug: 'audit-retry', name: 'Audit Retry' }).expect(201);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await writer.flush();
      expect(writer.pending).toBe(1);
    } finally {
      await t.dataSource.query('ALTER TABLE admin_audit_log_away RENAME TO admin_audit_log');
    }
    const page = await log(c);
    expect(writer.pending).toBe(0);
    expect(page.items).toEqual([expect.objectContaining({ method: 'POST', route: '/v1/admin/communities', statusCode: 201 })]);
    // A later flush writes nothing twice.
    expect((await log(c)).total).toBe(1);
  });

  it("stores a NUL-path request's entry (NUL as U+FFFD) and the other tenant's write of the same batch, within seconds", async () => {
    const crafted = await t.givenTenant();
    const honest = await t.givenTenant();
    const community = await givenCommunity(t, honest);
    await log(honest); // its create written: what follows waits for the writer's own timer
    const [refused] = await Promise.all([
      adminApi(t, crafted).patch('/v1/admin/communities/a%00b', { name: 'x' }),
      adminApi(t, honest).patch(`/v1/admin/communities/${community.id}`, { name: 'Renamed' }).expect(200),
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('unsafe_input');

    // No flush: the writer's 100 ms batch. A refused batch would only be tried again 1 s, 2 s... later.
    const read = async (c: TenantCredentials) => (await adminApi(t, c).get('/v1/admin/audit-log').expect(200)).body as { items: Entry[] };
    const end = Date.now() + 3000;
    let mine: Entry[] = [];
    let theirs: Entry[] = [];
    while (Date.now() < end && (mine.length < 1 || theirs.length < 2)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      [mine, theirs] = [(await read(crafted)).items, (await read(honest)).items];
    }
    expect(theirs[0]).toMatchObject({ method: 'PATCH', target: { communityId: community.id }, body: { name: 'Renamed' }, statusCode: 200 });
    expect(mine).toEqual([
      expect.objectContaining({
        actor: actorOf(crafted),
        method: 'PATCH',
        route: '/v1/admin/communities/:communityId',
        target: { communityId: 'a\ufffdb' },
        statusCode: 400,
      }),
    ]);
    expect(t.app.get(AuditLogWriter).pending).toBe(0);
  });
  describe('a client that goes away before the answer', () => {
    /**
     * Sends a management POST on a socket of its own while `table` is locked, so the request waits
     * (in the key check or in its handler); closes the socket and waits until the server saw it
     * go; then lets the request run to its end.
     */
    async function postAndLeave(c: TenantCredentials, path: string, body: object, table: 'tenants' | 'communities'): Promise<void> {
      const server = t.app.getHttpServer() as http.Server;
      const base = await listening(t);
      const lock = t.dataSource.createQueryRunner();
      await lock.connect();
      await lock.startTransaction();
      try {
        await lock.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
        const lockPid = await backendPid(lock);
        const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
        const req = http.request(`${base}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Api-Key': c.apiKey },
        });
        req.on('error', () => undefined);
        req.end(JSON.stringify(body));
        const socket = await accepted;
        // The request waits on the lock.
        await until(async () => (await waitingOn(t.dataSource, lockPid)) > 0);
        const gone = new Promise((resolve) => socket.once('close', resolve));
        req.destroy();
        await gone;
        await lock.commitTransaction();
      } finally {
        if (lock.isTransactionActive) await lock.rollbackTransaction();
        await lock.release();
      }
    }

    async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    /** The tenant's entries once `n` are written (the request ends after the client left). */
    async function entries(c: TenantCredentials, n: number): Promise<Entry[]> {
      let page = await log(c);
      await until(async () => (page = await log(c)).total >= n);
      return page.items;
    }

    it('records the write as it ended (status, the id it named), marked aborted', async () => {
      const c = await t.givenTenant();
      await adminApi(t, c).get('/v1/admin/communities').expect(200); // the key known: the wait is in the handler
      await postAndLeave(c, '/v1/admin/communities', { slug: 'audit-gone', name: 'Gone' }, 'communities');
      const [entry] = await entries(c, 1);
      const list = await adminApi(t, c).get('/v1/admin/communities').expect(200);
      const created = (list.body.items as { id: string; slug: string }[]).find((x) => x.slug === 'audit-gone');
      expect(created).toBeDefined();
      expect(entry).toMatchObject({ method: 'POST', route: '/v1/admin/communities', statusCode: 201, outcome: created!.id, aborted: true });
    });

    it('records a write refused after the client left with its refusal, not as a success', async () => {
      const c = await t.givenTenant();
      await adminApi(t, c).post('/v1/admin/communities', { slug: 'audit-taken', name: 'Taken' }).expect(201);
      await postAndLeave(c, '/v1/admin/communities', { slug: 'audit-taken', name: 'Again' }, 'communities');
      const refused = (await entries(c, 2)).find((e) => e.body?.name === 'Again');
      expect(refused).toMatchObject({
        route: '/v1/admin/communities',
        body: { slug: 'audit-taken', name: 'Again' },
        statusCode: 409,
        outcome: null,
        aborted: true,
      });
    });

    it('records a write whose client left before the key check ran', async () => {
      const c = await t.givenTenant(); // its key not looked up yet: the key check reads the tenants table
      await postAndLeave(c, '/v1/admin/communities', { slug: 'audit-early', name: 'Early' }, 'tenants');
      const [entry] = await entries(c, 1);
      expect(entry).toMatchObject({ actor: actorOf(c), route: '/v1/admin/communities', statusCode: 201, aborted: true });
      expect(entry.outcome).toEqual(expect.any(String));
    });
  });
});
