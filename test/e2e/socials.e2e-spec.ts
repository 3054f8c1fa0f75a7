import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { SocialsService } from '../../src/socials/socials.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { uniqueName } from '../factories/unique-name.js';

describe('socials: linked accounts of the current user', () => {
  const t = useTestApp({ SOCIAL_ACCOUNT_TYPES: 'kick,bluesky' });
  let tenant: TenantCredentials;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    alice = await givenUser(t, tenant);
    bob = await givenUser(t, tenant);
  });

  const link = (u: TestUser, body: unknown) =>
    t
      .http()
      .post('/v1/user/socials')
      .set('Authorization', u.auth)
      .send(body as object);
  const update = (u: TestUser, body: unknown) =>
    t
      .http()
      .post('/v1/user/socials/update')
      .set('Authorization', u.auth)
      .send(body as object);
  const list = (u: TestUser) => t.http().get('/v1/user/socials').set('Authorization', u.auth);
  const nextSubject = () => uniqueName('subject');

  it('links an account and returns it without tokens, saying which tokens are stored', async () => {
    const subjectId = nextSubject();
    const res = await link(alice, {
      accountType: 'Discord',
      subjectId,
      public: true,
      handle: 'alice#1',
      server: 'eu',
      expiryDate: '2026-05-01T12:00:00+02:00',
      extraArgs: { scopes: ['identify', 'guilds'], nested: { a: 1 } },
      createdAt: { at: '2019-03-02T10:00:00Z' },
      userToken: 'secret-user-token-123',
      refreshToken: 'secret-refresh-token-456',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      accountType: 'discord',
      subjectId,
      public: true,
      handle: 'alice#1',
      server: 'eu',
      expiryDate: '2026-05-01T10:00:00.000Z',
      extraArgs: { scopes: ['identify', 'guilds'], nested: { a: 1 } },
      createdAt: { at: '2019-03-02T10:00:00Z' },
      hasUserToken: true,
      hasRefreshToken: true,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/secret-/);
    expect(Object.keys(res.body)).not.toEqual(expect.arrayContaining(['userToken']));

    const all = await list(alice).expect(200);
    expect(all.body).toEqual([res.body]);
    expect(JSON.stringify(all.body)).not.toMatch(/secret-/);
  });

  it('stores tokens encrypted: the row holds no plaintext token', async () => {
    const res = await link(alice, {
      accountType: 'twitch',
      subjectId: nextSubject(),
      public: false,
      userToken: 'plain-twitch-token-XYZ',
      refreshToken: 'plain-refresh-ABC',
    }).expect(201);
    const [row] = await t.dataSource.query<Record<string, unknown>[]>('SELECT * FROM social_accounts WHERE id = $1', [res.body.id]);
    const dump = JSON.stringify(row);
    expect(dump).not.toContain('plain-twitch-token-XYZ');
    expect(dump).not.toContain('plain-refresh-ABC');
    expect(row.user_token_encrypted).toMatch(/^v1\./);
    expect(row.refresh_token_encrypted).toMatch(/^v1\./);
  });

  it('decrypts a token only for its own row and column: a ciphertext copied elsewhere does not decrypt', async () => {
    const socials = t.app.get(SocialsService);
    const a = await link(alice, { accountType: 'google', subjectId: nextSubject(), public: false, userToken: 'token-of-a' }).expect(201);
    const b = await link(alice, { accountType: 'google', subjectId: nextSubject(), public: false, userToken: 'token-of-b' }).expect(201);
    expect(await socials.readToken(tenant.id, alice.userId, a.body.id, 'userToken')).toBe('token-of-a');
    expect(await socials.readToken(tenant.id, alice.userId, a.body.id, 'refreshToken')).toBeNull();
    await expect(socials.readToken(tenant.id, bob.userId, a.body.id, 'userToken')).rejects.toMatchObject({
      definition: { error: 'social_not_found' },
    });

    await t.dataSource.query(
      'UPDATE social_accounts SET user_token_encrypted = (SELECT user_token_encrypted FROM social_accounts WHERE id = $1), refresh_token_encrypted = (SELECT user_token_encrypted FROM social_accounts WHERE id = $1) WHERE id = $2',
      [a.body.id, b.body.id],
    );
    await expect(socials.readToken(tenant.id, alice.userId, b.body.id, 'userToken')).rejects.toThrow();
    await expect(socials.readToken(tenant.id, alice.userId, b.body.id, 'refreshToken')).rejects.toThrow();
  });

  it('accepts account types added by configuration and refuses unknown ones with 400', async () => {
    await link(alice, { accountType: 'kick', subjectId: nextSubject(), public: true }).expect(201);
    const res = await link(alice, { accountType: 'myspace', subjectId: nextSubject(), public: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 10002, error: 'unsupported_account_type' });
    expect(res.body.detail).toContain('kick');
  });

  it('refuses to link an account another user holds with 409, and re-linking own account updates it in place', async () => {
    const subjectId = nextSubject();
    const first = await link(alice, { accountType: 'steam', subjectId, public: false, handle: 'old' }).expect(201);
    const taken = await link(bob, { accountType: 'steam', subjectId, public: true });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 60002, error: 'social_account_taken' });

    const again = await link(alice, { accountType: 'STEAM', subjectId, public: true, handle: 'new', userToken: 'tok' }).expect(201);
    expect(again.body).toMatchObject({ id: first.body.id, public: true, handle: 'new', hasUserToken: true });
    const rows = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM social_accounts WHERE subject_id = $1', [
      subjectId,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('lets exactly one of two users win a concurrent link of the same account', async () => {
    const subjectId = nextSubject();
    const results = await Promise.all([
      link(alice, { accountType: 'github', subjectId, public: true }),
      link(bob, { accountType: 'github', subjectId, public: true }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM social_accounts WHERE subject_id = $1', [
      subjectId,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('the same subject under another type is another account', async () => {
    const subjectId = nextSubject();
    await link(alice, { accountType: 'x', subjectId, public: true }).expect(201);
    await link(bob, { accountType: 'twitter', subjectId, public: true }).expect(201);
  });

  it('lists the accounts of one type, case-insensitively; empty when none; 400 for an unsupported type', async () => {
    const carol = await givenUser(t, tenant);
    await link(carol, { accountType: 'youtube', subjectId: nextSubject(), public: true }).expect(201);
    await link(carol, { accountType: 'youtube', subjectId: nextSubject(), public: false }).expect(201);
    await link(carol, { accountType: 'reddit', subjectId: nextSubject(), public: true }).expect(201);
    const yt = await t.http().get('/v1/user/socials/YouTube').set('Authorization', carol.auth).expect(200);
    expect(yt.body).toHaveLength(2);
    expect(yt.body.every((s: { accountType: string }) => s.accountType === 'youtube')).toBe(true);
    const none = await t.http().get('/v1/user/socials/telegram').set('Authorization', carol.auth).expect(200);
    expect(none.body).toEqual([]);
    const bad = await t.http().get('/v1/user/socials/not-a-type').set('Authorization', carol.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('unsupported_account_type');
    const malformed = await t.http().get('/v1/user/socials/bad%20type!').set('Authorization', carol.auth);
    expect(malformed.status).toBe(400);
    // Another user's accounts of the type are not listed.
    const bobs = await t.http().get('/v1/user/socials/youtube').set('Authorization', bob.auth).expect(200);
    expect(bobs.body).toEqual([]);
  });

  it('updates given fields only, null clears, tokens can be replaced and cleared', async () => {
    const created = await link(alice, {
      accountType: 'telegram',
      subjectId: nextSubject(),
      public: false,
      handle: 'h1',
      server: 's1',
      userToken: 'u1',
      refreshToken: 'r1',
      extraArgs: { a: 1 },
    }).expect(201);
    const res = await update(alice, {
      socialId: created.body.id,
      handle: 'h2',
      public: true,
      refreshToken: null,
      extraArgs: null,
      expiryDate: '2027-01-01',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.body.id,
      handle: 'h2',
      server: 's1',
      public: true,
      hasUserToken: true,
      hasRefreshToken: false,
      extraArgs: null,
      expiryDate: '2027-01-01T00:00:00.000Z',
    });
    const [row] = await t.dataSource.query<Record<string, string | null>[]>(
      'SELECT refresh_token_encrypted, user_token_encrypted FROM social_accounts WHERE id = $1',
      [created.body.id],
    );
    expect(row.refresh_token_encrypted).toBeNull();
    expect(row.user_token_encrypted).toMatch(/^v1\./);

    const noop = await update(alice, { socialId: created.body.id }).expect(200);
    expect(noop.body).toMatchObject({ handle: 'h2', public: true });
  });

  it("user B cannot see, update or delete user A's social: 404, and A's account is unchanged", async () => {
    const a = await link(alice, { accountType: 'facebook', subjectId: nextSubject(), public: false, handle: 'mine' }).expect(201);
    const listB = await list(bob).expect(200);
    expect(listB.body.map((s: { id: string }) => s.id)).not.toContain(a.body.id);

    const upd = await update(bob, { socialId: a.body.id, handle: 'stolen' });
    expect(upd.status).toBe(404);
    expect(upd.body).toMatchObject({ code: 60001, error: 'social_not_found' });
    const del = await t.http().delete(`/v1/user/socials/${a.body.id}`).set('Authorization', bob.auth);
    expect(del.status).toBe(404);
    expect(del.body).toMatchObject({ code: 60001, error: 'social_not_found' });

    const mine = await list(alice).expect(200);
    expect(mine.body.find((s: { id: string }) => s.id === a.body.id)).toMatchObject({ handle: 'mine' });
  });

  it('a user of another tenant cannot touch the account either', async () => {
    const other = await t.givenTenant();
    const eve = await givenUser(t, other);
    const a = await link(alice, { accountType: 'instagram', subjectId: nextSubject(), public: true }).expect(201);
    await update(eve, { socialId: a.body.id, handle: 'x' }).expect(404);
    await t.http().delete(`/v1/user/socials/${a.body.id}`).set('Authorization', eve.auth).expect(404);
    // The same account may be linked in another tenant: tenants are separate.
    await link(eve, { accountType: 'instagram', subjectId: a.body.subjectId, public: true }).expect(201);
  });

  it('deletes own account (204), then it is gone (404 on a second delete)', async () => {
    const a = await link(alice, { accountType: 'tiktok', subjectId: nextSubject(), public: true }).expect(201);
    const del = await t.http().delete(`/v1/user/socials/${a.body.id}`).set('Authorization', alice.auth);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    await t.http().delete(`/v1/user/socials/${a.body.id}`).set('Authorization', alice.auth).expect(404);
    const mine = await list(alice).expect(200);
    expect(mine.body.map((s: { id: string }) => s.id)).not.toContain(a.body.id);
    // Unlinked, the account can be linked by someone else.
    await link(bob, { accountType: 'tiktok', subjectId: a.body.subjectId, public: true }).expect(201);
  });

  it('requires a session on every route', async () => {
    const id = '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c';
    const calls = [
      t.http().get('/v1/user/socials'),
      t.http().post('/v1/user/socials').send({ accountType: 'discord', subjectId: 'x', public: true }),
      t.http().get('/v1/user/socials/discord'),
      t.http().post('/v1/user/socials/update').send({ socialId: id }),
      t.http().delete(`/v1/user/socials/${id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 10411, message: 'GENERIC_UNAUTHORIZED', error: 'session_token_missing' });
    }
  });

  describe('bad link bodies give 400 {code: 10002}', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    const cases: [string, unknown][] = [
      ['missing accountType', { subjectId: 's', public: true }],
      ['missing subjectId', { accountType: 'discord', public: true }],
      ['missing public', { accountType: 'discord', subjectId: 's' }],
      ['public not a boolean', { accountType: 'discord', subjectId: 's', public: 'yes' }],
      ['an unknown field', { accountType: 'discord', subjectId: 's', public: true, owner: 'me' }],
      ['an empty subjectId', { accountType: 'discord', subjectId: '', public: true }],
      ['an oversized subjectId', { accountType: 'discord', subjectId: 'x'.repeat(257), public: true }],
      ['a NUL in the handle', { accountType: 'discord', subjectId: 's', public: true, handle: 'a\u0000b' }],
      ['an oversized handle', { accountType: 'discord', subjectId: 's', public: true, handle: 'h'.repeat(129) }],
      ['an oversized token', { accountType: 'discord', subjectId: 's', public: true, userToken: 't'.repeat(4097) }],
      ['a malformed accountType', { accountType: 'dis cord!', subjectId: 's', public: true }],
      ['expiryDate without a time zone', { accountType: 'discord', subjectId: 's', public: true, expiryDate: '2026-05-01T12:00:00' }],
      ['expiryDate not a date', { accountType: 'discord', subjectId: 's', public: true, expiryDate: 'tomorrow' }],
      ['expiryDate on Feb 30', { accountType: 'discord', subjectId: 's', public: true, expiryDate: '2026-02-30T00:00:00Z' }],
      ['extraArgs an array', { accountType: 'discord', subjectId: 's', public: true, extraArgs: [1, 2] }],
      ['extraArgs a string', { accountType: 'discord', subjectId: 's', public: true, extraArgs: 'x' }],
      ['extraArgs too deep', { accountType: 'discord', subjectId: 's', public: true, extraArgs: deep }],
      ['extraArgs too large', { accountType: 'discord', subjectId: 's', public: true, extraArgs: { blob: 'x'.repeat(5000) } }],
      ['createdAt a number', { accountType: 'discord', subjectId: 's', public: true, createdAt: 1700000000 }],
      ['createdAt holding a NUL', { accountType: 'discord', subjectId: 's', public: true, createdAt: { a: '\u0000' } }],
    ];
    it.each(cases)('%s', async (_name, body) => {
      const res = await link(alice, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error' });
      expect(res.body.detail).not.toBe('');
    });
  });

  describe('bad update bodies give 400 {code: 10002}', () => {
    const cases: [string, unknown][] = [
      ['missing socialId', { handle: 'x' }],
      ['socialId not a uuid', { socialId: 'abc' }],
      ['public null', { socialId: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c', public: null }],
      ['accountType cannot change', { socialId: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c', accountType: 'x' }],
      ['extraArgs an array', { socialId: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c', extraArgs: [] }],
    ];
    it.each(cases)('%s', async (_name, body) => {
      const res = await update(alice, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(10002);
    });

    it('an unknown socialId is 404', async () => {
      const res = await update(alice, { socialId: '6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c', handle: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('social_not_found');
    });

    it('a malformed id on delete is 400', async () => {
      const res = await t.http().delete('/v1/user/socials/not-a-uuid').set('Authorization', alice.auth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(10002);
    });
  });
});
