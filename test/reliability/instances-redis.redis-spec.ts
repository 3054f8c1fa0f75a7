import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster } from '../helpers/processes.js';
import { countBy, register, report, scale } from './support.js';

// The test client stands for a proxy on loopback: X-Forwarded-For names the client.
const LIMITS = {
  TRUST_PROXY: 'loopback',
  LOGIN_RATE_LIMIT_IP: '8',
  LOGIN_RATE_LIMIT_ACCOUNT: '3',
  LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: '10',
  LOGIN_RATE_WINDOW_SECONDS: '60',
};

/** This file's own Redis database (1–15) on the run's Redis, emptied first, so other files' counters never mix in. */
function isolatedRedisUrl(): string {
  const base = process.env.REDIS_URL;
  if (!base)
    throw new Error('REDIS_URL is not set: run this through `npm run test:reliability` (its global setup provides Redis or fails)');
  const u = new URL(base);
  u.pathname = `/${1 + Math.floor(Math.random() * 15)}`;
  return u.toString();
}

/**
 * Part 1 (Redis): login rate limits are counted in one Redis, so they hold across instances.
 * Moved here from test/e2e/auth-rate-limit.e2e-spec.ts (same assertions), now on real processes.
 */
describe('login rate limits across instances sharing Redis', () => {
  let c: Cluster;
  let a: AppInstance;
  let b: AppInstance;
  let redisUrl: string;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    redisUrl = isolatedRedisUrl();
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    await redis.quit();
    c = await startCluster(createTestDatabase, 2, { ...LIMITS, REDIS_URL: redisUrl });
    [a, b] = c.apps;
  }, 120_000);
  afterAll(async () => {
    report('1. several instances: shared rate limits (Redis)', figures);
    await c?.close();
  });

  // A distinct client address per call (TRUST_PROXY=loopback: as behind a local proxy).
  const fromIp = (address = `10.${randomBytes(3).join('.')}`) => ({ 'X-Tenant-Id': c.tenant.id, 'X-Forwarded-For': address });

  it('the per-IP count is shared: requests spread over both instances are limited together', async () => {
    const ip = fromIp();
    const send = (app: AppInstance, i: number) =>
      app.call('POST', '/v1/user/auth/password/login', { headers: ip, body: { username: `ip_${i}`, password: 'wrong-password' } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(i % 2 === 0 ? a : b, i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401]);
    const ninthA = await send(a, 8);
    const ninthB = await send(b, 9);
    expect([ninthA.status, ninthB.status]).toEqual([429, 429]);
    expect(ninthB.body).toMatchObject({ code: 10029, error: 'too_many_requests' });
    expect(Number(ninthB.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the per account and address count is shared: 3 attempts from one address, the 4th is 429 on either instance', async () => {
    const user = await register(a, c.tenant);
    const attacker = fromIp();
    const attempt = (app: AppInstance, headers: Record<string, string>, password = 'wrong-password') =>
      app.call('POST', '/v1/user/auth/password/login', { headers, body: { username: user.username, password } });
    expect((await attempt(b, attacker)).status).toBe(401);
    expect((await attempt(a, attacker)).status).toBe(401);
    expect((await attempt(b, attacker)).status).toBe(401);
    const blocked = await attempt(a, attacker, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 10029, error: 'too_many_requests' });
    expect((await attempt(b, attacker, user.password)).status).toBe(429);
    // the owner from another address is not blocked by that address's guessing
    expect((await attempt(b, fromIp(), user.password)).status).toBe(200);
  });

  it('the per-account ceiling is shared: many addresses over both instances trip it, the owner from a known address still gets in on the other', async () => {
    const home = fromIp();
    const user = await register(a, c.tenant);
    // the owner logs in from home on instance a: home becomes a known address of the account
    expect(
      (await a.call('POST', '/v1/user/auth/password/login', { headers: home, body: { username: user.username, password: user.password } }))
        .status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const r = await (i % 2 ? a : b).call('POST', '/v1/user/auth/password/login', {
        headers: fromIp(),
        body: { username: user.username, password: `guess-${i}` },
      });
      statuses.push(r.status);
    }
    // the owner's registration and login count towards nothing: 10 guesses from new addresses are the ceiling, then new addresses are refused
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
    expect(
      (
        await b.call('POST', '/v1/user/auth/password/login', {
          headers: fromIp(),
          body: { username: user.username, password: user.password },
        })
      ).status,
    ).toBe(429);
    expect(
      (await b.call('POST', '/v1/user/auth/password/login', { headers: home, body: { username: user.username, password: user.password } }))
        .status,
    ).toBe(200);
    figures.ceilingOverTwoInstances = {
      guesses: statuses.length,
      refusedNewAddresses: statuses.filter((s) => s === 429).length + 1,
      ownerFromKnownAddress: 200,
    };
  });

  it('concurrent bursts over both instances let exactly the limit through', async () => {
    const rounds = scale(5, 40);
    let passed = 0;
    let limited = 0;
    for (let r = 0; r < rounds; r++) {
      const ip = fromIp();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).call('POST', '/v1/user/auth/password/login', {
            headers: ip,
            body: { username: `burst_${r}_${i}`, password: 'wrong-password' },
          }),
        ),
      );
      const statuses = countBy(results, (x) => x.status);
      expect(statuses).toEqual({ 401: 8, 429: 12 });
      passed += statuses[401];
      limited += statuses[429];
    }
    figures.burstRounds = rounds;
    figures.burstRequests = rounds * 20;
    figures.passedUnderLimit = passed;
    figures.refused429 = limited;
  });
});
