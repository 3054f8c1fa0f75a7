import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CgsApiError,
  CONTRACT,
  createCgsClient,
  orThrow,
  type CgsClient,
  type Notification,
  type SessionTokens,
} from '../../clients/typescript/index.js';
import { NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { HOUR } from '../helpers/quests.js';
import { useTestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const PACKAGE = join(ROOT, 'clients/typescript');

/**
 * The TypeScript client package (clients/typescript) doing the client's part of the interface
 * against the real app on a loopback port: it keeps a login's session, refreshes an expired
 * session token once for any number of refused requests and sends them again, ends the session
 * when the refresh token is refused, throws typed errors, and keeps the live stream going across
 * a dropped connection and an expired token. Then the package itself: it packs and imports built.
 */
describe('the TypeScript client package', () => {
  const t = useTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' }, { resetClock: true });
  let tenant: TenantCredentials;
  let baseUrl: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    tenant = await t.givenTenant();
  });

  /** A client whose requests are counted by path, its stored tokens recorded as `onTokens` sees them. */
  const counted = (tokens?: SessionTokens) => {
    const calls: string[] = [];
    const stored: (SessionTokens | null)[] = [];
    const api = createCgsClient({
      baseUrl,
      tenantId: tenant.slug,
      tokens,
      fetch: (request: Request) => {
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
      onTokens: (next) => void stored.push(next),
    });
    return { api, calls, stored };
  };
  const register = async (api: CgsClient, username: string) =>
    orThrow(api.POST('/v1/user/register/password', { body: { username, password: 'correct horse battery' } }));

  it('keeps the session of a login and hands it to onTokens', async () => {
    const { api, stored } = counted();
    const session = await register(api, 'pkg_keeper');
    expect(api.tokens).toEqual({ sessionToken: session.sessionToken, refreshToken: session.refreshToken });
    expect(stored).toEqual([api.tokens]);
    const me = await orThrow(api.GET('/v1/user/auth/session'));
    expect(me.userId).toBe(session.userId);
  });

  it('refreshes an expired session token once for ten concurrent requests, then sends each again', async () => {
    const { api, calls, stored } = counted();
    // A session that began 11 minutes ago: its session token has expired, its refresh token not.
    t.clock.advance(-11 * 60 * 1000);
    const session = await register(api, 'pkg_refresher');
    t.clock.reset();
    calls.length = 0;
    stored.length = 0;

    const answers = await Promise.all(Array.from({ length: 10 }, () => api.GET('/v1/user/auth/session')));
    expect(answers.map((a) => a.response.status)).toEqual(Array(10).fill(200));
    expect(answers.every((a) => a.data?.userId === session.userId)).toBe(true);
    expect(calls.filter((c) => c === 'POST /v1/user/auth/refresh-session')).toHaveLength(1);
    // Ten refused, one refresh, ten sent again.
    expect(calls.filter((c) => c === 'GET /v1/user/auth/session')).toHaveLength(20);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toEqual({ sessionToken: expect.any(String) as string, refreshToken: session.refreshToken });
    expect(stored[0]!.sessionToken).not.toBe(session.sessionToken);
    expect(api.tokens).toEqual(stored[0]);

    // The new token serves the next request at once.
    calls.length = 0;
    expect((await api.GET('/v1/user/auth/session')).response.status).toBe(200);
    expect(calls).toEqual(['GET /v1/user/auth/session']);
  });

  it('ends the session when the refresh token is refused, and throws typed errors', async () => {
    const { api, calls, stored } = counted();
    t.clock.advance(-31 * 24 * HOUR); // both tokens expired
    await register(api, 'pkg_expired');
    t.clock.reset();
    stored.length = 0;

    const refused = api.GET('/v1/user/auth/session');
    const error = await orThrow(refused).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CgsApiError);
    expect(error).toMatchObject({ status: 401, identifier: 'SESSION_TOKEN_EXPIRED', code: 'SESSION_TOKEN_EXPIRED' });
    expect(calls.filter((c) => c === 'POST /v1/user/auth/refresh-session')).toHaveLength(1);
    expect(stored).toEqual([null]);
    expect(api.tokens).toBeUndefined();

    // Log in again: the session is back.
    await orThrow(api.POST('/v1/user/auth/password/login', { body: { username: 'pkg_expired', password: 'correct horse battery' } }));
    expect(api.tokens?.sessionToken).toMatch(/^ey/);
    const missing = await orThrow(
      api.POST('/v1/community/{communityId}/join', { params: { path: { communityId: 'no-such' }, query: { referrerHandle: '' } } }),
    ).catch((e: unknown) => e as CgsApiError);
    expect(missing).toMatchObject({ status: 404, identifier: 'community_not_found', code: 'community_not_found' });
    expect((missing as CgsApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the live stream across an expired token and a dropped connection, missing nothing', async () => {
    const { api, calls } = counted();
    // The session token has expired by the time the stream opens: the client refreshes, then connects.
    t.clock.advance(-11 * 60 * 1000);
    const session = await register(api, 'pkg_streamer');
    t.clock.reset();
    const notify = (title: string) =>
      t.dataSource.transaction((em) =>
        t.app
          .get(NotificationsService)
          .notify(em, { tenantId: tenant.id, userId: session.userId, type: NotificationType.System, title, data: {} }),
      );
    const received: Notification[] = [];
    const readies: number[] = [];
    const waitFor = async (check: () => boolean, what: string) => {
      const deadline = Date.now() + 15_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; calls: ${calls.join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const stream = api.streamNotifications({ onNotification: (n) => received.push(n), onReady: ({ replayed }) => readies.push(replayed) });
    try {
      await waitFor(() => readies.length === 1, 'the stream to be ready');
      expect(calls.filter((c) => c === 'POST /v1/user/auth/refresh-session')).toHaveLength(1);
      await notify('first');
      await waitFor(() => received.length === 1, 'the first notification');

      // The connection drops; one more is written meanwhile. The stream resumes after the last event.
      t.app.getHttpServer().closeAllConnections();
      await notify('while away');
      await waitFor(() => readies.length === 2, 'the stream to reconnect');
      expect(readies).toEqual([0, 1]);
      await notify('after');
      await waitFor(() => received.length === 3, 'the notification after the reconnection');
      expect(received.map((n) => n.title)).toEqual(['first', 'while away', 'after']);
      expect(calls.filter((c) => c === 'POST /v1/user/auth/refresh-session')).toHaveLength(1);
      expect(stream.lastEventId).toEqual(expect.any(String));
    } finally {
      stream.close();
    }
  }, 30_000);

  it('is a package: built ESM and types, its own README, the version of the contract it was generated from', async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string; exports: unknown };
    const openapi = readFileSync(join(ROOT, 'openapi.json'), 'utf8');
    expect(manifest.version.split('.')[0]).toBe((JSON.parse(openapi) as { info: { version: string } }).info.version);
    expect(CONTRACT).toEqual({ apiVersion: manifest.version.split('.')[0], sha256: createHash('sha256').update(openapi).digest('hex') });

    // `npm pack` builds it (prepack) and ships exactly the built files and the README.
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: PACKAGE, timeout: 120_000 });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as { name: string; files: { path: string }[] }[];
    expect(packed.name).toBe('@community-gaming/client');
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'dist/contract.js', 'package.json']),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'package.json'].includes(f))).toEqual([]);

    // The built module, imported as an application imports the package, logs in.
    const script = `import { createCgsClient, orThrow } from ${JSON.stringify(join(PACKAGE, 'dist/index.js'))};
      const api = createCgsClient({ baseUrl: ${JSON.stringify(baseUrl)}, tenantId: ${JSON.stringify(tenant.slug)} });
      const s = await orThrow(api.POST('/v1/user/register/password', { body: { username: 'pkg_built', password: 'correct horse battery' } }));
      console.log(JSON.stringify({ user: s.userId, kept: api.tokens?.sessionToken === s.sessionToken }));`;
    const out = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 30_000 });
    expect(JSON.parse(out.stdout)).toEqual({ user: expect.stringMatching(/^[0-9a-f-]{36}$/) as string, kept: true });
  }, 150_000);
});
