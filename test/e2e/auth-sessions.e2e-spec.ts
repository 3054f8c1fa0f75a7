import pg from 'pg';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenCommunity } from '../helpers/communities.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { adminUrl, urlFor } from '../setup/test-database.js';

/** Polls `probe` until it returns true or `boundMs` passes; returns the time it took (or throws). */
async function within(boundMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > boundMs) throw new Error(`not within ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Session tokens carry a session id (`sid`): logging out ends them at once, not 10 minutes later,
 * and a session whose user no longer exists is a 401, never a 500. The revocation list is pushed to
 * every instance (PostgreSQL LISTEN/NOTIFY; several instances: test/reliability/instances.rel-spec.ts).
 */
describe('session tokens end with their session', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const post = (path: string, body: object) => t.http().post(path).set('X-Tenant-Id', tenant.id).send(body);
  const whoAmI = (token: string) => t.http().get('/v1/user/auth/session').set('Authorization', `Bearer ${token}`);
  const login = async (u: TestUser) =>
    (await post('/v1/user/auth/password/login', { username: u.username, password: u.password }).expect(200)).body as {
      sessionToken: string;
      refreshToken: string;
    };
  const expectEnded = (res: { status: number; body: Record<string, unknown> }) => {
    expect({ status: res.status, code: res.body.code, error: res.body.error }).toEqual({
      status: 401,
      code: 10416,
      error: 'session_ended',
    });
    expect(res.body.message).toBe('GENERIC_UNAUTHORIZED');
  };

  it('logout of one session ends its session tokens (refreshed ones too) at once; the other sessions go on', async () => {
    const u = await givenUser(t, tenant);
    const phone = await login(u);
    const refreshed = (await post('/v1/user/auth/refresh-session', { refreshToken: phone.refreshToken }).expect(200)).body
      .sessionToken as string;
    expect((await whoAmI(phone.sessionToken)).status).toBe(200);

    await t
      .http()
      .post('/v1/user/auth/logout')
      .set('Authorization', `Bearer ${phone.sessionToken}`)
      .send({ refreshToken: phone.refreshToken })
      .expect(204);

    expectEnded(await whoAmI(phone.sessionToken));
    expectEnded(await whoAmI(refreshed));
    // the registration's session is another login: it keeps working
    expect((await whoAmI(u.sessionToken)).status).toBe(200);
  });

  it("logout of all sessions ends every session token of the user, and no other user's", async () => {
    const u = await givenUser(t, tenant);
    const other = await givenUser(t, tenant);
    const second = await login(u);
    await t.http().post('/v1/user/auth/logout').set('Authorization', u.auth).send({ all: true }).expect(204);
    expectEnded(await whoAmI(u.sessionToken));
    expectEnded(await whoAmI(second.sessionToken));
    expect((await whoAmI(other.sessionToken)).status).toBe(200);
    // a new login after the logout is a new session
    const again = await login(u);
    expect((await whoAmI(again.sessionToken)).status).toBe(200);
  });

  it('refuses a session whose user was deleted with 401 on every route, never 500', async () => {
    const community = await givenCommunity(t, tenant);
    const u = await givenUser(t, tenant);
    const second = await login(u);
    // There is no user deletion in the API: an operator deletes the row.
    await t.dataSource.query('DELETE FROM users WHERE id = $1', [u.userId]);
    await within(3000, async () => (await whoAmI(u.sessionToken)).status === 401);
    for (const token of [u.sessionToken, second.sessionToken]) {
      const auth = `Bearer ${token}`;
      expectEnded(await whoAmI(token));
      expectEnded(await t.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', auth));
      expectEnded(await t.http().get('/v1/user/profile?fields=username').set('Authorization', auth));
      expectEnded(
        await t.http().post('/v1/user/socials').set('Authorization', auth).send({ accountType: 'discord', subjectId: 'gone-user' }),
      );
    }
  });

  it('a write of a user deleted before the revocation list heard of it is 401, not a foreign-key 500', async () => {
    const community = await givenCommunity(t, tenant);
    const u = await givenUser(t, tenant);
    // The window between the DELETE and its notification, held open: the users triggers are off.
    const admin = new pg.Client({ connectionString: urlFor(t.databaseName) });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('ALTER TABLE users DISABLE TRIGGER USER');
      await admin.query('DELETE FROM users WHERE id = $1', [u.userId]);
      await admin.query('ALTER TABLE users ENABLE TRIGGER USER');
      await admin.query('COMMIT');
    } finally {
      await admin.end();
    }
    const join = await t.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', u.auth);
    expectEnded(join);
  });

  it('keeps the list current when its LISTEN connection is cut and cannot come back (short poll), and reconnects', async () => {
    const u = await givenUser(t, tenant);
    const listener = async () =>
      await t.dataSource.query<{ pid: number }[]>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cgs:session-revocations'`,
      );
    const [before] = await listener();
    expect(before?.pid).toEqual(expect.any(Number));
    const [{ sid }] = await t.dataSource.query('SELECT id AS sid FROM refresh_tokens WHERE user_id = $1', [u.userId]);

    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      // New connections are refused (the pool keeps its open ones), and the listener is cut.
      await admin.query(`ALTER DATABASE ${t.databaseName} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend($1)', [before.pid]);
      // A revocation written by another instance while this one cannot hear it (no NOTIFY reaches it).
      await t.dataSource.query(`INSERT INTO session_revocations (session_id, expires_at) VALUES ($1, now() + interval '11 minutes')`, [
        sid,
      ]);
      const ms = await within(5000, async () => (await whoAmI(u.sessionToken)).status === 401);
      expect(ms).toBeLessThan(5000);
      expectEnded(await whoAmI(u.sessionToken));
    } finally {
      await admin.query(`ALTER DATABASE ${t.databaseName} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    // the listener comes back by itself
    await within(15_000, async () => (await listener()).some((l) => l.pid !== before.pid));
  });
});
