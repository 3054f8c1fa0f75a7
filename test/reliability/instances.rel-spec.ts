import { Wallet } from 'ethers';
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../setup/test-database.js';
import { createTenantWithCli, setTenantSettings, startCluster, type AppInstance, type Cluster } from '../helpers/processes.js';
import {
  asAdmin,
  asUser,
  countBy,
  expectOk,
  givenCommunity,
  givenResourceType,
  grant,
  loginToken,
  pool,
  register,
  report,
  scale,
  siweBody,
  SIWE_ORIGIN,
  unique,
} from './support.js';

/**
 * Part 1: three app processes on one database. Nothing that must be shared is held per process:
 * sessions, one-use nonces (JWE `_nonce`, SIWE nonce) and ranks give the same answer everywhere.
 * (Rate limits shared through Redis: instances-redis.redis-spec.ts.)
 */
describe('several instances on one database', () => {
  let c: Cluster;
  let apps: AppInstance[];
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    c = await startCluster(createTestDatabase, 3);
    apps = c.apps;
    // SIWE needs allowed origins; the CLI writes the setting, every instance reads it from the database.
    setTenantSettings(c.databaseUrl, c.tenant.id, { siweAllowedOrigins: [SIWE_ORIGIN] });
  }, 120_000);
  afterAll(async () => {
    report('1. several instances', figures);
    await c?.close();
  });

  const tenantHeader = () => ({ 'X-Tenant-Id': c.tenant.id });

  it('accepts a session made on one instance on every other, and a refresh on another', async () => {
    const u = await register(apps[0], c.tenant);
    for (const app of apps) {
      const s = await app.call('GET', '/v1/user/auth/session', { headers: asUser(u) });
      expect(s.status).toBe(200);
      expect(s.body).toMatchObject({ userId: u.userId, tenantId: c.tenant.id });
    }
    const refreshed = expectOk(
      await apps[1].call('POST', '/v1/user/auth/refresh-session', { headers: tenantHeader(), body: { refreshToken: u.refreshToken } }),
      200,
      'refresh',
    );
    const onThird = await apps[2].call('GET', '/v1/user/profile?fields=username', {
      headers: { Authorization: `Bearer ${refreshed.body.sessionToken}` },
    });
    expect(onThird.status).toBe(200);
    // a logout on one instance revokes the refresh token on all
    expectOk(await apps[2].call('POST', '/v1/user/auth/logout', { headers: asUser(u), body: { all: true } }), 204, 'logout');
    const afterLogout = await apps[0].call('POST', '/v1/user/auth/refresh-session', {
      headers: tenantHeader(),
      body: { refreshToken: u.refreshToken },
    });
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body).toHaveProperty('code');
    figures.sessionChecks = apps.length + 2;
  });

  /** Polls every instance until each refuses `token`; returns the slowest instance's time (ms from `since`). */
  const refusedEverywhere = async (token: string, since: number, boundMs = 10_000) => {
    const times = await Promise.all(
      apps.map(async (app) => {
        for (;;) {
          const r = await app.call('GET', '/v1/user/auth/session', { headers: { Authorization: `Bearer ${token}` } });
          if (r.status === 401) {
            expect(r.body).toMatchObject({ code: 10416, message: 'GENERIC_UNAUTHORIZED', error: 'session_ended' });
            return Date.now() - since;
          }
          expect(r.status).toBe(200);
          if (Date.now() - since > boundMs) throw new Error(`${app.name} still accepts the session token ${boundMs} ms after the logout`);
          await new Promise((done) => setTimeout(done, 20));
        }
      }),
    );
    return Math.max(...times);
  };

  it('ends the session token of a logout on every instance within a second or two, not 10 minutes later', async () => {
    const ends: number[] = [];
    for (let i = 0; i < scale(5, 30); i++) {
      const u = await register(apps[i % 3], c.tenant);
      const other = await register(apps[i % 3], c.tenant);
      for (const app of apps) expect((await app.call('GET', '/v1/user/auth/session', { headers: asUser(u) })).status).toBe(200);
      const since = Date.now();
      const body = i % 2 ? { all: true } : { refreshToken: u.refreshToken };
      expectOk(await apps[(i + 1) % 3].call('POST', '/v1/user/auth/logout', { headers: asUser(u), body }), 204, 'logout');
      ends.push(await refusedEverywhere(u.sessionToken, since));
      for (const app of apps) expect((await app.call('GET', '/v1/user/auth/session', { headers: asUser(other) })).status).toBe(200);
    }
    figures.logoutsPropagated = ends.length;
    figures.logoutRefusedEverywhereMs = { median: ends.sort((x, y) => x - y)[Math.floor(ends.length / 2)], slowest: Math.max(...ends) };
    expect(Math.max(...ends)).toBeLessThan(5000);
  });

  it('keeps propagating logouts after the LISTEN connections are cut; no process dies', async () => {
    const pids = apps.map((a) => a.pid());
    const cut = await c.sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cgs:session-revocations'`,
    );
    expect(cut.rowCount).toBe(apps.length);
    const u = await register(apps[0], c.tenant);
    const since = Date.now();
    expectOk(await apps[0].call('POST', '/v1/user/auth/logout', { headers: asUser(u), body: { all: true } }), 204, 'logout');
    figures.logoutAfterListenCutMs = await refusedEverywhere(u.sessionToken, since);
    expect(apps.map((a) => a.pid())).toEqual(pids);
    expect(apps.map((a) => a.exitCode())).toEqual([null, null, null]);
  });

  it('accepts a JWE login token once: a replay on another instance is 401, concurrent replays log in once', async () => {
    const token = await loginToken(c.tenant.sharedSecret);
    expectOk(await apps[0].call('POST', '/v1/user/auth/providerB/login', { headers: tenantHeader(), body: { token } }), 200, 'first login');
    for (const app of apps.slice(1)) {
      const replay = await app.call('POST', '/v1/user/auth/providerB/login', { headers: tenantHeader(), body: { token } });
      expect(replay.status).toBe(401);
      expect(replay.body).toMatchObject({ code: 12006, error: 'login_token_replayed' });
    }
    const tokens = scale(10, 100);
    let ok = 0;
    let refused = 0;
    for (let i = 0; i < tokens; i++) {
      const fresh = await loginToken(c.tenant.sharedSecret);
      const results = await Promise.all(
        [...apps, ...apps].map((app) =>
          app.call('POST', '/v1/user/auth/providerC/login', { headers: tenantHeader(), body: { token: fresh } }),
        ),
      );
      const statuses = countBy(results, (r) => r.status);
      expect(statuses).toEqual({ 200: 1, 401: 5 });
      ok += statuses[200];
      refused += statuses[401];
    }
    figures.jweTokensReplayedConcurrently = tokens;
    figures.jweLoginsAccepted = ok;
    figures.jweReplaysRefused = refused;
  });

  it('accepts a SIWE nonce once across instances', async () => {
    const wallet = Wallet.createRandom();
    const nonce = randomBytes(8).toString('hex');
    const body = await siweBody(wallet, nonce);
    const results = await Promise.all(apps.map((app) => app.call('POST', '/v1/user/auth/siwe/login', { headers: tenantHeader(), body })));
    expect(countBy(results, (r) => r.status)).toEqual({ 200: 1, 401: 2 });
    for (const r of results.filter((x) => x.status === 401)) expect(r.body).toMatchObject({ error: 'siwe_nonce_replayed' });
    // the same nonce in a new message signed again is still refused
    const again = await apps[1].call('POST', '/v1/user/auth/siwe/login', { headers: tenantHeader(), body: await siweBody(wallet, nonce) });
    expect(again.body).toMatchObject({ error: 'siwe_nonce_replayed' });
    figures.siweNonceReplaysRefused = 3;
  });

  it('gives the same ranks and leaderboard on every instance while grants land on all of them', async () => {
    const community = await givenCommunity(apps[0], c.tenant);
    const xp = await givenResourceType(apps[1], c.tenant, community.id);
    const users = await pool(4, scale(12, 60), () => register(apps[0], c.tenant));
    const grants = scale(120, 1200);
    const results = await pool(24, grants, (i) =>
      grant(apps[i % apps.length], c.tenant, users[i % users.length].userId, xp.id, 1 + ((i * 7) % 13)),
    );
    expect(countBy(results, (r) => r.status)).toEqual({ 201: grants });
    const boards = await Promise.all(
      apps.map((app) =>
        app.call('GET', `/v1/community/${community.id}/leaderboard/${xp.slug}?limit=100`, { headers: { 'X-Tenant-Id': c.tenant.id } }),
      ),
    );
    for (const b of boards) expect(b.status).toBe(200);
    expect(boards[1].body).toEqual(boards[0].body);
    expect(boards[2].body).toEqual(boards[0].body);
    let ranksCompared = 0;
    for (const u of users) {
      const ranks = await Promise.all(
        apps.map((app) => app.call('GET', `/v1/community/${community.id}/ranking/${xp.slug}`, { headers: asUser(u) })),
      );
      expect(ranks.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(ranks[1].body).toEqual(ranks[0].body);
      expect(ranks[2].body).toEqual(ranks[0].body);
      ranksCompared += 3;
    }
    figures.grantsOverInstances = grants;
    figures.ranksComparedAcrossInstances = ranksCompared;
  });

  it('sees a tenant created by the CLI on every instance, and its API key works everywhere', async () => {
    const other = createTenantWithCli(c.databaseUrl, unique('t-'));
    for (const app of apps) {
      const r = await app.call('GET', '/v1/admin/communities', { headers: asAdmin(other) });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ total: 0 });
    }
  });
});
