import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { jest } from '@jest/globals';
import { TenantsRepository } from '../../src/tenants/tenants.repository.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, givenCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { createTenantWithCli, sqlPool, startApp, uniqueSlug, type AppInstance } from '../helpers/processes.js';
import { useTestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../setup/test-database.js';

/**
 * Which tenant a request runs in when the interface gives it no tenant header (issue 15, item 3):
 * the session token's, X-Tenant-Id, the host name's domain, DEFAULT_TENANT, the only tenant.
 */
describe('tenant resolution with several tenants', () => {
  const t = useTestApp();
  let A: TenantCredentials;
  let B: TenantCredentials;
  let alice: TestUser;
  let bob: TestUser;

  const login = (u: TestUser, headers: Record<string, string> = {}) =>
    t.http().post('/v1/user/auth/password/login').set(headers).send({ username: u.username, password: u.password });
  /** `arena` exists in both tenants under a different name, so the answer says which tenant ran it. */
  const arena = (headers: Record<string, string>) => t.http().get('/v1/community/arena').set(headers);
  const putDomains = (tenant: TenantCredentials, domains: unknown, headers: Record<string, string> = {}) =>
    t.http().put('/v1/admin/tenant/domains').set('X-Api-Key', tenant.apiKey).set(headers).send({ domains });

  beforeAll(async () => {
    A = await t.givenTenant();
    B = await t.givenTenant();
    alice = await givenUser(t, A);
    bob = await givenUser(t, B);
    await givenCommunity(t, A, { slug: 'arena', name: 'Arena of A' });
    await givenCommunity(t, B, { slug: 'arena', name: 'Arena of B' });
  });

  it('logs in and reads public routes without X-Tenant-Id on a domain assigned to the tenant; elsewhere 400 tenant_required', async () => {
    const put = await putDomains(B, ['Play.B-Games.example.']);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: B.id, slug: B.slug, domains: ['play.b-games.example'] });

    for (const host of ['play.b-games.example', 'PLAY.B-Games.Example.', 'play.b-games.example:8443']) {
      const res = await login(bob, { Host: host });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
    expect((await arena({ Host: 'play.b-games.example' })).body).toMatchObject({ name: 'Arena of B' });
    // X-Tenant-Id comes before the host name.
    expect((await arena({ Host: 'play.b-games.example', 'X-Tenant-Id': A.slug })).body).toMatchObject({ name: 'Arena of A' });

    for (const host of ['other.example', 'b-games.example', 'play.b-games.example.evil.example', '127.0.0.1', 'app_1']) {
      const res = await login(bob, { Host: host });
      expect({ host, status: res.status, body: res.body }).toMatchObject({
        host,
        status: 400,
        body: { code: 10002, error: 'tenant_required' },
      });
    }
  });

  it('refreshes a session on the tenant domain while the client still sends its expired session token', async () => {
    await putDomains(A, ['play.a-games.example']);
    t.clock.advance(-60 * 60 * 1000); // the session token is issued an hour ago: expired
    const stale = await givenUser(t, A);
    t.clock.reset();
    expect((await t.http().get('/v1/user/auth/session').set('Authorization', stale.auth)).body).toMatchObject({
      error: 'SESSION_TOKEN_EXPIRED',
    });

    const res = await t
      .http()
      .post('/v1/user/auth/refresh-session')
      .set({ Host: 'play.a-games.example', Authorization: stale.auth })
      .send({ refreshToken: stale.refreshToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sessionToken: expect.any(String) });
    // On a public route the token is a tenant hint, like X-Tenant-Id: a bad signature changes
    // nothing (the data is public); an unreadable token names nothing, and neither is a 401.
    const tampered = await arena({ Authorization: `${alice.auth}x` });
    expect(tampered.status).toBe(200);
    expect(tampered.body).toMatchObject({ name: 'Arena of A' });
    const unreadable = await arena({ Authorization: 'Bearer not-a-jwt' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({ code: 10002, error: 'tenant_required' });
  });

  it("refreshes a session in the refresh token's tenant when nothing else names one, as a client of the interface sends it", async () => {
    const refresh = (user: TestUser, headers: Record<string, string> = {}) =>
      t.http().post('/v1/user/auth/refresh-session').set(headers).send({ refreshToken: user.refreshToken });
    for (const user of [alice, bob]) {
      const res = await refresh(user);
      expect(res.status).toBe(200);
      const session = await t
        .http()
        .get('/v1/user/auth/session')
        .set('Authorization', `Bearer ${res.body.sessionToken as string}`);
      expect(session.body).toMatchObject({ userId: user.userId, tenantId: user.tenant.id });
    }
    // Named otherwise, it must be the token's.
    expect((await refresh(alice, { 'X-Tenant-Id': B.id })).body).toMatchObject({ error: 'refresh_token_invalid' });
    expect((await refresh(alice, { 'X-Tenant-Id': A.slug })).status).toBe(200);
    // An unknown token is refused as before, and other public routes still need their tenant named.
    const unknown = await t
      .http()
      .post('/v1/user/auth/refresh-session')
      .send({ refreshToken: 'x'.repeat(64) });
    expect(unknown.body).toMatchObject({ message: 'GENERIC_UNAUTHORIZED', error: 'refresh_token_invalid' });
    expect((await login(alice)).body).toMatchObject({ error: 'tenant_required' });
  });

  it("runs a public route called with a valid session and no X-Tenant-Id in the session's tenant, before the host's", async () => {
    const res = await arena({ Authorization: alice.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Arena of A' });
    expect((await arena({ Authorization: alice.auth, Host: 'play.b-games.example' })).body).toMatchObject({ name: 'Arena of A' });
    expect((await arena({ Authorization: bob.auth })).body).toMatchObject({ name: 'Arena of B' });
  });

  it('answers 401 when a session token and X-Tenant-Id name different tenants, on public and user routes', async () => {
    const pub = await arena({ Authorization: alice.auth, 'X-Tenant-Id': B.id });
    expect(pub.status).toBe(401);
    expect(pub.body).toMatchObject({ code: 10415, message: 'GENERIC_UNAUTHORIZED', error: 'tenant_mismatch' });
    const user = await t.http().get('/v1/user/auth/session').set({ Authorization: alice.auth, 'X-Tenant-Id': B.slug });
    expect(user.status).toBe(401);
    expect(user.body).toMatchObject({ code: 10415, message: 'GENERIC_UNAUTHORIZED', error: 'tenant_mismatch' });
    // The same tenant by id or slug is fine.
    expect((await arena({ Authorization: alice.auth, 'X-Tenant-Id': A.slug })).status).toBe(200);
  });

  it('refuses an X-Tenant-Id longer than any slug or id with 400 unknown_tenant, without reading or keeping it', async () => {
    const lookups = jest.spyOn(t.app.get(TenantsRepository), 'findByRef');
    try {
      for (const ref of ['x'.repeat(65), `${A.id}${'x'.repeat(15_000)}`]) {
        const res = await arena({ 'X-Tenant-Id': ref });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ message: 'generic_client_error', error: 'unknown_tenant' });
      }
      expect(lookups).not.toHaveBeenCalled();
      // A ref of a slug's length is looked up (and refused when it names no tenant).
      expect((await arena({ 'X-Tenant-Id': 'y'.repeat(64) })).body).toMatchObject({ error: 'unknown_tenant' });
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
    expect((await arena({ 'X-Tenant-Id': A.id })).body).toMatchObject({ name: 'Arena of A' });
  });

  it('shows the API key its own tenant and domains', async () => {
    const res = await adminApi(t, A).get('/v1/admin/tenant');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: A.id, slug: A.slug, name: A.name, domains: ['play.a-games.example'] });
    expect((await t.http().get('/v1/admin/tenant')).status).toBe(401);
  });

  it('normalises domains, refuses invalid ones with 400 and changes nothing', async () => {
    const ok = await putDomains(A, ['Bücher.Example', 'xn--bcher-kva.example.', 'Play.A-Games.example:443', 'ＡＲＥＮＡ.example']);
    expect(ok.status).toBe(200);
    expect(ok.body.domains).toEqual(['arena.example', 'play.a-games.example', 'xn--bcher-kva.example']);
    expect((await login(alice, { Host: 'xn--bcher-kva.example' })).status).toBe(200);

    for (const bad of [
      'https://a.example',
      'a.example/x',
      '*.a.example',
      'a_b.example',
      'a..example',
      '10.0.0.1',
      '[::1]',
      'a.example:99999',
      '',
      ' a.example',
    ]) {
      const res = await putDomains(A, ['ok.example', bad]);
      expect({ bad, status: res.status, body: res.body }).toMatchObject({
        bad,
        status: 400,
        body: { code: 10002, error: 'invalid_domain' },
      });
    }
    for (const bad of ['a.example', [42], ['x'.repeat(301)], Array.from({ length: 51 }, (_, i) => `d${i}.example`)]) {
      const res = await putDomains(A, bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002 });
    }
    expect((await adminApi(t, A).get('/v1/admin/tenant')).body.domains).toEqual([
      'arena.example',
      'play.a-games.example',
      'xn--bcher-kva.example',
    ]);
  });

  it("refuses a domain of another tenant with 409, changing nothing, and never lets a key change another tenant's domains", async () => {
    const taken = await putDomains(B, ['play.b-games.example', 'new-b.example', 'ARENA.example.']);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 13001, error: 'domain_taken' });
    expect((await adminApi(t, B).get('/v1/admin/tenant')).body.domains).toEqual(['play.b-games.example']);
    // The route has no tenant parameter: a key works on its own tenant; naming another is 401.
    const other = await putDomains(B, ['x.example'], { 'X-Tenant-Id': A.id });
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ code: 10415, message: 'GENERIC_UNAUTHORIZED', error: 'tenant_mismatch' });
    expect((await adminApi(t, A).get('/v1/admin/tenant')).body.domains).toEqual([
      'arena.example',
      'play.a-games.example',
      'xn--bcher-kva.example',
    ]);
  });

  it('keeps a domain unique across tenants in the database itself, and only in the normalised form', async () => {
    const sql = sqlPool(t.config.DATABASE_URL!);
    try {
      await expect(
        sql.query('INSERT INTO tenant_domains (domain, tenant_id) VALUES ($1, $2)', ['arena.example', B.id]),
      ).rejects.toMatchObject({ code: '23505' });
      await expect(
        sql.query('INSERT INTO tenant_domains (domain, tenant_id) VALUES ($1, $2)', ['Upper.example', B.id]),
      ).rejects.toMatchObject({ code: '23514' });
    } finally {
      await sql.end();
    }
  });

  it('manages domains with the CLI (tenant:domains): normalised, and a domain of another tenant refused, changing nothing', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [resolve('dist/src/cli/cli.js'), 'tenant:domains', ...args], {
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: t.config.DATABASE_URL, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const added = cli('--tenant', B.slug, '--add', 'Shop.B-Games.example.', '--add', 'extra.example', '--json');
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      id: B.id,
      domains: ['extra.example', 'play.b-games.example', 'shop.b-games.example'],
    });
    const refused = cli('--tenant', B.id, '--remove', 'EXTRA.example', '--add', 'arena.example', '--json');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('arena.example');
    const listed = await adminApi(t, B).get('/v1/admin/tenant');
    expect(listed.body.domains).toEqual(['extra.example', 'play.b-games.example', 'shop.b-games.example']);
    const kept = cli('--tenant', B.id, '--remove', 'EXTRA.example', '--json');
    expect(JSON.parse(kept.stdout).domains).toEqual(['play.b-games.example', 'shop.b-games.example']);
  }, 120_000);
});

describe('DEFAULT_TENANT (real processes)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let acme: TenantCredentials;
  const apps: AppInstance[] = [];
  const user = { username: 'acme_player', password: 'correct horse battery' };

  beforeAll(async () => {
    db = await createTestDatabase();
    // The first start on the empty database creates the `default` tenant; acme is the second.
    const first = await startApp({ databaseUrl: db.url, env: { QUEST_EVENT_WORKER_ENABLED: 'false' } });
    apps.push(first);
    acme = createTenantWithCli(db.url, uniqueSlug('acme'));
    const reg = await first.call('POST', '/v1/user/register/password', { headers: { 'X-Tenant-Id': acme.slug }, body: user });
    expect(reg.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.kill()));
    await db.drop();
  });

  it('logs in without a tenant header in the DEFAULT_TENANT, and without it refuses with 400 tenant_required', async () => {
    const without = await apps[0].call('POST', '/v1/user/auth/password/login', { body: user });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 10002, error: 'tenant_required' });

    for (const ref of [acme.slug, acme.id]) {
      const app = await startApp({ databaseUrl: db.url, env: { DEFAULT_TENANT: ref, QUEST_EVENT_WORKER_ENABLED: 'false' } });
      apps.push(app);
      const res = await app.call('POST', '/v1/user/auth/password/login', { body: user });
      expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
      const session = await app.call('GET', '/v1/user/auth/session', { headers: { Authorization: `Bearer ${res.body.sessionToken}` } });
      expect(session.body).toMatchObject({ tenantId: acme.id });
    }
  }, 120_000);

  it('refuses to start when DEFAULT_TENANT names no tenant, saying so', async () => {
    /** The start-up error, or undefined when the process started (it is then stopped with the others). */
    const startError = async (DEFAULT_TENANT: string): Promise<string | undefined> => {
      const started = await startApp({ databaseUrl: db.url, env: { DEFAULT_TENANT, QUEST_EVENT_WORKER_ENABLED: 'false' } }).catch(
        (err: Error) => err,
      );
      if (started instanceof Error) return started.message;
      apps.push(started);
      return undefined;
    };
    expect(await startError('no-such-tenant')).toMatch(/exited during start-up[\s\S]*DEFAULT_TENANT "no-such-tenant" names no tenant/);
    expect(await startError('Not A Slug!')).toMatch(/DEFAULT_TENANT must be a tenant slug or id/);
  }, 120_000);
});
