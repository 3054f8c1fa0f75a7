import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { DataSource } from 'typeorm';
import { AUTH_MODE_KEY } from '../../src/common/auth/auth.decorators.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { bringDatabaseUp, createTestDatabase, takeDatabaseDown } from '../setup/test-database.js';
import { createTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import { givenCommunity } from '../helpers/communities.js';
import { appEntities } from '../../src/app.entities.js';

const run = promisify(execFile);

describe('platform', () => {
  const t = useTestApp();

  it('answers an unknown route with 404 {code, message}', async () => {
    const res = await t.http().get('/v1/no/such/route?x=1');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 10004, message: 'not_found', error: 'not_found', detail: 'No route GET /v1/no/such/route' });
  });

  // Regressions found by the reliability fuzzer (test/reliability/fuzz.rel-spec.ts): these were 500s or bare 431s.
  it('refuses JSON nested deeper than 32 levels with 400 {code, message}, never a 500', async () => {
    const tenant = await t.givenTenant();
    const deep = `${'['.repeat(40_000)}${']'.repeat(40_000)}`;
    const res = await t
      .http()
      .post('/v1/user/register/password')
      .set('X-Tenant-Id', tenant.id)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error' });
    const nested = await t
      .http()
      .post('/v1/user/register/password')
      .set('X-Tenant-Id', tenant.id)
      .send({ username: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`), password: 'x' });
    expect(nested.status).toBe(400);
    expect(nested.body.detail).toMatch(/nested more than 32 levels/);
  });

  // The outage of issue 15: `__proto__[polluted]=1` wrote onto Object.prototype, and every tenant's
  // logins answered 500 until the process restarted.
  it('refuses prototype keys in a query, deepObject or body with 400, and leaves the process healthy for other tenants', async () => {
    const victimTenant = await t.givenTenant();
    const victim = await givenUser(t, victimTenant);
    const attackerTenant = await t.givenTenant();
    const attacker = await givenUser(t, attackerTenant);
    const attacks = [
      t.http().get('/v1/quest-event?__proto__[polluted]=1').set('Authorization', attacker.auth),
      t.http().get('/v1/quest-event?filter[__proto__]=1').set('Authorization', attacker.auth),
      t.http().get('/v1/quest-event?constructor[prototype]=1').set('Authorization', attacker.auth),
      t
        .http()
        .post('/v1/user/profile')
        .set('Authorization', attacker.auth)
        .set('Content-Type', 'application/json')
        .send('{"displayName":"x","__proto__":{"polluted":1}}'),
      t
        .http()
        .post('/v1/user/socials')
        .set('Authorization', attacker.auth)
        .send({ accountType: 'discord', subjectId: 's1', public: true, extraArgs: { constructor: { prototype: { polluted: 1 } } } }),
    ];
    for (const res of await Promise.all(attacks)) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002 });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const login = await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Tenant-Id', victimTenant.id)
      .send({ username: victim.username, password: victim.password });
    expect(login.status).toBe(200);
  });

  it('says a required field that was not sent is required, and lists the checks of one that was sent wrong', async () => {
    const tenant = await t.givenTenant();
    const user = await givenUser(t, tenant);
    const api = (req: ReturnType<ReturnType<TestApp['http']>['get']>) => req.set('X-Tenant-Id', tenant.id);
    const seen = async (req: ReturnType<ReturnType<TestApp['http']>['get']>) => {
      const res = await api(req);
      return {
        status: res.status,
        message: res.body.message,
        error: res.body.error,
        detail: res.body.detail,
        fields: res.body.details?.fields,
      };
    };
    const refused = (detail: string, fields: string[]) => ({
      status: 400,
      message: 'generic_client_error',
      error: 'validation_failed',
      detail,
      fields,
    });
    const community = await givenCommunity(t, tenant);
    expect({
      join: await seen(t.http().post(`/v1/community/${community.id}/join`).set('Authorization', user.auth)),
      refresh: await seen(t.http().post('/v1/user/auth/refresh-session').send({})),
      login: await seen(t.http().post('/v1/user/auth/password/login').send({ username: 'someone' })),
      tooLong: await seen(
        t
          .http()
          .post(`/v1/community/${community.id}/join?referrerHandle=${'x'.repeat(33)}`)
          .set('Authorization', user.auth),
      ),
    }).toEqual({
      join: refused('referrerHandle is required', ['referrerHandle']),
      refresh: refused('refreshToken is required', ['refreshToken']),
      login: refused('password is required', ['password']),
      tooLong: refused('referrerHandle must be shorter than or equal to 32 characters', ['referrerHandle']),
    });
  });

  it('refuses a NUL character in a body, query or path value with 400 {code, message}', async () => {
    const tenant = await t.givenTenant();
    const body = await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Tenant-Id', tenant.id)
      .send({ username: 'a\u0000b', password: 'password' });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ code: 10002, message: 'generic_client_error', detail: 'The body contains a NUL character' });
    const path = await t.http().get('/v1/community/a%00b').set('X-Tenant-Id', tenant.id);
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({ code: 10002 });
  });

  it('refuses a body that is not valid UTF-8, holds half a character or is not JSON, changing nothing; takes +json types', async () => {
    const tenant = await t.givenTenant();
    const user = await givenUser(t, tenant);
    const update = (body: string | Buffer, type?: string) => {
      // Sent as they are (superagent would write a Buffer as JSON).
      const req = t
        .http()
        .post('/v1/user/profile')
        .set('Authorization', user.auth)
        .serialize((b: unknown) => b as string);
      return (type ? req.set('Content-Type', type) : req).send(body as string);
    };
    const kept = async () =>
      (
        (await t.http().get('/v1/user/profile?fields=displayName').set('Authorization', user.auth).expect(200)).body as {
          displayName: unknown;
        }
      ).displayName;
    expect((await update('{"displayName":"Ada"}', 'application/json')).status).toBe(200);

    const bytes = await update(
      Buffer.from([...Buffer.from('{"displayName":"a'), 0xff, 0xfe, 0xc3, 0x28, ...Buffer.from('"}')]),
      'application/json',
    );
    expect({ status: bytes.status, body: bytes.body as unknown }).toEqual({
      status: 400,
      body: expect.objectContaining({
        message: 'generic_client_error',
        error: 'invalid_json',
        detail: 'The request body is not valid UTF-8',
      }),
    });
    const half = await update('{"displayName":"a\\ud800b"}', 'application/json');
    expect(half.status).toBe(400);
    expect(half.body).toMatchObject({
      message: 'generic_client_error',
      error: 'unsafe_input',
      detail: expect.stringContaining('surrogate'),
    });
    const halfKey = await update('{"\\udc00":1}', 'application/json');
    expect(halfKey.body).toMatchObject({ error: 'unsafe_input' });
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await update('{"displayName":"Not JSON"}', type);
      expect({ type, status: res.status, body: res.body as unknown }).toEqual({
        type,
        status: 415,
        body: expect.objectContaining({ message: 'unsupported_media_type', error: 'unsupported_media_type' }),
      });
    }
    // JSON is UTF-8: another charset is refused, not decoded.
    const utf16 = await update(Buffer.from('{"displayName":"UTF-16"}', 'utf16le'), 'application/json; charset=utf-16');
    expect(utf16.body).toMatchObject({ message: 'unsupported_media_type', error: 'unsupported_media_type' });
    expect(await kept()).toBe('Ada');

    expect((await update('{"displayName":"Ada L"}', 'application/vnd.api+json')).status).toBe(200);
    expect(await kept()).toBe('Ada L');
    // No body at all needs no type.
    expect((await t.http().post('/v1/user/profile').set('Authorization', user.auth)).status).toBe(200);
  });

  it('answers a request line or headers over the size limit with 431 {code, message}', async () => {
    const res = await t.http().get(`/v1/community/x?pad=${'A'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ code: 10031, message: 'headers_too_large', error: 'headers_too_large', detail: expect.any(String) });
  });

  it('sets security headers and echoes a request id', async () => {
    const res = await t.http().get('/health').set('X-Request-Id', 'req-123');
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toBe('req-123');
  });

  it('refuses a malformed body with the request id and the security headers, parsing each body once', async () => {
    const res = await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Request-Id', 'req-bad-json')
      .set('Content-Type', 'application/json')
      .send('{"username": "a",');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_json', requestId: 'req-bad-json' });
    expect(res.headers['x-request-id']).toBe('req-bad-json');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    // setupApp's parser only (the app is made with `bodyParser: false`).
    const layers = (t.app.getHttpAdapter().getInstance() as { router: { stack: { handle: { name: string } }[] } }).router.stack;
    expect(layers.map((l) => l.handle.name).filter((name) => /parser/i.test(name))).toEqual(['jsonParser']);
  });

  it('reports the database in /health/ready: 200 when up, 503 {code, message} when down, recovers', async () => {
    await t.http().get('/health/ready').expect(200);
    await takeDatabaseDown(t.databaseName);
    try {
      const down = await t.http().get('/health/ready');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        code: 10503,
        message: 'service_unavailable',
        error: 'service_unavailable',
        detail: 'Not ready: database down',
      });
      const login = await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', 'whatever')
        .send({ username: 'a', password: 'b' });
      expect(login.status).toBe(503);
      expect(JSON.stringify(login.body)).not.toMatch(/ECONN|SELECT|at .*\.js/);
    } finally {
      await bringDatabaseUp(t.databaseName);
    }
    await t.http().get('/health/ready').expect(200);
  });

  it('declares how every route is authenticated', () => {
    const discovery = new DiscoveryService(t.app.get(ModulesContainer));
    const scanner = new MetadataScanner();
    const missing: string[] = [];
    let count = 0;
    for (const wrapper of discovery.getControllers()) {
      const proto = Object.getPrototypeOf(wrapper.instance) as object;
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = (proto as Record<string, unknown>)[name] as object;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        count++;
        const mode = Reflect.getMetadata(AUTH_MODE_KEY, handler) ?? Reflect.getMetadata(AUTH_MODE_KEY, wrapper.metatype as object);
        if (!['public', 'user', 'apiKey', 'infrastructure'].includes(mode)) missing.push(`${wrapper.name}.${name}`);
      }
    }
    expect(count).toBeGreaterThan(3);
    expect(missing).toEqual([]);
  });
});

describe('a fresh start', () => {
  it('serves a burst of sign-ups larger than the pool at once, with no key read left for the first requests', async () => {
    // An empty database (the start-up runs every migration), keys generated and kept in the
    // database (no SESSION_SECRET / ENCRYPTION_KEY), two connections.
    const fresh = await createTestApp({ DB_POOL_SIZE: '2' }, { emptyDatabase: true });
    try {
      const tenant = await fresh.givenTenant();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fresh
            .http()
            .post('/v1/user/register/password')
            .set('X-Tenant-Id', tenant.id)
            .send({ username: `burst_${i}`, password: 'correct horse battery' }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    } finally {
      await fresh.close();
    }
  });
});

describe('schema', () => {
  it('migrations on an empty database produce exactly the schema of the entities', async () => {
    const db = await createTestDatabase({ empty: true });
    const ds = new DataSource({ ...dataSourceOptions(db.url, appEntities), logging: false });
    try {
      await ds.initialize();
      const ran = await ds.runMigrations({ transaction: 'each' });
      expect(ran.length).toBeGreaterThan(0);
      const pending = await ds.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      if (ds.isInitialized) await ds.destroy();
      await db.drop();
    }
  });
});

describe('published contract', () => {
  it('openapi.json and docs/errors.md match the code', async () => {
    // The committed document is generated from the build (with the Swagger CLI plugin).
    const res = await run(process.execPath, ['dist/src/cli/cli.js', 'openapi', '--check'], { cwd: process.cwd() }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect('stderr' in res ? res.stderr : '').toBe('');
  });
});
