import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenListing } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'clients/csharp/CommunityGaming.Client');
/** Debian's Json.NET (libnewtonsoft-json-cil-dev); Unity's is com.unity.nuget.newtonsoft-json. */
const NEWTONSOFT = process.env.NEWTONSOFT_JSON_DLL ?? '/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll';

/**
 * The C# client (clients/csharp) as CI proves it: compiled by Mono's compiler (`mcs`, C# 7.2, what
 * Unity's compiler also takes), the UnityWebRequest transport compiled against the members of
 * Unity's API it uses (test/csharp/UnityEngineStub.cs), and a small C# game client
 * (test/csharp/Smoke.cs) run by Mono against the real app: login, ten requests on an expired
 * session (one refresh), a purchase, a notification poll, a typed error.
 */
describe('the C# client', () => {
  let t: TestApp;
  let work: string;

  beforeAll(async () => {
    for (const tool of ['mcs', 'mono'])
      await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
        throw new Error(
          `${tool} not found: apt-get install mono-mcs mono-runtime libmono-system-net-http4.0-cil libnewtonsoft-json-cil-dev`,
        );
      });
    if (!existsSync(NEWTONSOFT))
      throw new Error(`${NEWTONSOFT} not found: apt-get install libnewtonsoft-json-cil-dev (or set NEWTONSOFT_JSON_DLL)`);
    work = mkdtempSync(join(tmpdir(), 'cgs-csharp-'));
    t = await createTestApp({ QUEST_EVENT_WORKER_ENABLED: 'false', MINT_WORKER_ENABLED: 'false' });
    await t.app.listen(0, '127.0.0.1');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const mcs = (args: string[]) =>
    run('mcs', ['-langversion:7.2', '-warnaserror+', `-r:${NEWTONSOFT}`, '-r:System.Net.Http.dll', ...args], { cwd: ROOT });

  it('compiles with Mono, the UnityWebRequest transport too', async () => {
    await mcs(['-target:library', `-out:${join(work, 'CommunityGaming.Client.dll')}`, `-recurse:${CLIENT}/*.cs`]);
    await mcs([
      '-target:library',
      '-define:UNITY_2017_2_OR_NEWER',
      `-out:${join(work, 'CommunityGaming.Client.Unity.dll')}`,
      `-recurse:${CLIENT}/*.cs`,
      join(ROOT, 'test/csharp/UnityEngineStub.cs'),
    ]);
    // The Unity build has the transport; the plain one does not (it needs UnityEngine): a game's
    // code naming it compiles against the first only.
    const game = join(work, 'Game.cs');
    writeFileSync(
      game,
      'public static class Game { public static object Transport() { return new CommunityGaming.Client.UnityWebRequestTransport(); } }\n',
    );
    const against = (dll: string) => mcs(['-target:library', `-out:${join(work, 'Game.dll')}`, `-r:${join(work, dll)}`, game]);
    await against('CommunityGaming.Client.Unity.dll');
    await expect(against('CommunityGaming.Client.dll')).rejects.toMatchObject({
      stderr: expect.stringContaining('UnityWebRequestTransport') as string,
    });
  }, 120_000);

  it('runs a game client against the service: login, a refresh for ten requests, a purchase, a poll, a typed error', async () => {
    const tenant: TenantCredentials = await t.givenTenant();
    const community = await givenCommunity(t, tenant);
    const gems = await givenResourceType(t, tenant, community.id, { slug: 'gems' });
    const coins = await givenResourceType(t, tenant, community.id, { slug: 'coins' });
    const listing = await givenListing(t, tenant, {
      communityId: community.id,
      kind: 'resource',
      resourceTypeId: coins.id,
      quantity: 5,
      price: [{ resourceTypeId: gems.id, amount: 10 }],
    });
    const http = t.http();
    const account = { username: 'unity_player', password: 'correct horse battery' };
    // The player's account, and a session of it that began 11 minutes ago (its token has expired).
    t.clock.advance(-11 * 60 * 1000);
    const old = await http.post('/v1/user/register/password').set('X-Tenant-Id', tenant.id).send(account).expect(201);
    t.clock.reset();
    expect((await grant(t, tenant, old.body.userId as string, gems.id, 30)).status).toBe(201);

    await mcs(['-target:library', `-out:${join(work, 'CommunityGaming.Client.dll')}`, `-recurse:${CLIENT}/*.cs`]);
    await mcs([`-out:${join(work, 'Smoke.exe')}`, `-r:${join(work, 'CommunityGaming.Client.dll')}`, join(ROOT, 'test/csharp/Smoke.cs')]);
    const { stdout } = await run('mono', [join(work, 'Smoke.exe')], {
      cwd: work,
      timeout: 60_000,
      env: {
        ...process.env,
        MONO_PATH: [work, join(NEWTONSOFT, '..')].join(':'),
        CGS_BASE_URL: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`,
        CGS_TENANT: tenant.slug,
        CGS_USERNAME: account.username,
        CGS_PASSWORD: account.password,
        CGS_EXPIRED_SESSION_TOKEN: old.body.sessionToken as string,
        CGS_EXPIRED_REFRESH_TOKEN: old.body.refreshToken as string,
        CGS_LISTING_ID: listing.id as string,
        CGS_COMMUNITY: community.slug,
      },
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(seen).toEqual({
      userId: old.body.userId,
      kept: true,
      sessionUsers: [old.body.userId],
      refreshes: 1,
      sends: 20,
      changes: ['session', 'session'],
      purchase: { Id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string, ListingId: listing.id },
      balance: { coins: 5, gems: 20 },
      notifications: ['purchase_completed'],
      error: { identifier: 'community_not_found', code: '404 community_not_found' },
    });
  }, 180_000);
});
