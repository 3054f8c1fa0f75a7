import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RateLimitStore, type RedisRateLimitStore } from '../../src/auth/throttling/rate-limit-store.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { uniqueHandle } from '../factories/unique-name.js';

/**
 * Login rate limits in Redis while Redis goes away (issue 46: with Redis stopped, 31 of 35 logins
 * and registrations answered 500). Logins keep working, the limits hold in the process meanwhile,
 * and the counters are shared again once Redis is back.
 */
describe('login rate limits when Redis is away', () => {
  let server: RedisServer;
  let t: TestApp;
  let tenant: TenantCredentials;
  let store: RedisRateLimitStore;

  beforeAll(async () => {
    server = await startRedisServer();
    t = await createTestApp({
      REDIS_URL: server.url,
      REDIS_COMMAND_TIMEOUT_MS: '100',
      TRUST_PROXY: 'loopback',
      LOGIN_RATE_LIMIT_IP: '1000',
      LOGIN_RATE_LIMIT_ACCOUNT: '3',
      LOGIN_RATE_WINDOW_SECONDS: '60',
    });
    tenant = await t.givenTenant();
    store = t.app.get<RateLimitStore, RedisRateLimitStore>(RateLimitStore);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const from = () => `203.0.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const post = (path: string, body: object, address: string) =>
    t.http().post(path).set('X-Tenant-Id', tenant.id).set('X-Forwarded-For', address).send(body);
  const register = (username: string, address: string) =>
    post('/v1/user/register/password', { username, password: 'right-password' }, address);
  const login = (username: string, password: string, address: string) =>
    post('/v1/user/auth/password/login', { username, password }, address);
  const keys = async () => {
    const r = new Redis(server.url);
    try {
      return await r.keys('cgs:rl:*');
    } finally {
      r.disconnect();
    }
  };
  const timed = async <T>(run: () => Promise<T>) => {
    const started = Date.now();
    const value = await run();
    return { value, ms: Date.now() - started };
  };

  it('counts in Redis while it answers', async () => {
    const username = uniqueHandle('up');
    expect((await register(username, from())).status).toBe(201);
    expect(store.shared).toBe(true);
    expect((await keys()).length).toBeGreaterThan(0);
  });

  it('keeps logins and registrations working while Redis is killed, with the limits held in the process, and shares them again when it is back', async () => {
    const owner = uniqueHandle('owner');
    const home = from();
    expect((await register(owner, home)).status).toBe(201);
    await server.kill();
    await until(
      async () => store.shared,
      (shared) => !shared,
    );

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await register(uniqueHandle(`down_${i}`), from())).status);
      statuses.push((await login(owner, 'right-password', home)).status);
    }
    expect(statuses).toEqual(
      Array(10)
        .fill(0)
        .map((_, i) => (i % 2 === 0 ? 201 : 200)),
    );
    // the limits still hold: 3 failures from one address, then 429 even with the right password
    const guesser = from();
    const guesses = [];
    for (let i = 0; i < 4; i++) guesses.push((await login(owner, i === 3 ? 'right-password' : 'wrong', guesser)).status);
    expect(guesses).toEqual([401, 401, 401, 429]);

    await server.start(); // empty, as after a restart
    await until(
      async () => store.shared,
      (shared) => shared,
      { timeoutMs: 10_000 },
    );
    expect((await login(owner, 'right-password', home)).status).toBe(200);
    expect((await keys()).length).toBeGreaterThan(0);
    // a block made while Redis was away lasts its time
    expect((await login(owner, 'right-password', guesser)).status).toBe(429);
  }, 60_000);

  it('waits no longer than the command timeout for a Redis that stopped answering', async () => {
    const owner = uniqueHandle('frozen');
    const home = from();
    expect((await register(owner, home)).status).toBe(201);
    server.pause();
    try {
      // The first login meets the timeout (100 ms) on its first command, the next ones skip Redis.
      const first = await timed(() => login(owner, 'right-password', home));
      const next = await timed(() => login(owner, 'right-password', home));
      expect([first.value.status, next.value.status]).toEqual([200, 200]);
      // Bounds far above the timeout: a hang would be Redis's reconnection time, many seconds.
      expect(first.ms).toBeLessThan(2_000);
      expect(next.ms).toBeLessThan(2_000);
    } finally {
      server.resume();
    }
    await until(
      async () => store.shared,
      (shared) => shared,
      { timeoutMs: 10_000 },
    );
  }, 30_000);
});
