import { useTestApp } from '../helpers/test-app.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { adminApi, givenCommunity, givenResourceType, grant } from '../helpers/communities.js';
import { givenCommunityRow } from '../helpers/user-space.js';
import { ReferralsService } from '../../src/users/referrals.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

describe('profile, public profile and referrals', () => {
  const t = useTestApp({}, { resetClock: true });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const getProfile = (u: TestUser, query: string) => t.http().get(`/v1/user/profile${query}`).set('Authorization', u.auth);
  const update = (u: TestUser, body: unknown) =>
    t
      .http()
      .post('/v1/user/profile')
      .set('Authorization', u.auth)
      .send(body as object);
  const publicProfile = (ref: string, containerId?: string, tenantRef: string = tenant.id) =>
    t
      .http()
      .get(`/v1/user/by-id/${encodeURIComponent(ref)}/public`)
      .query(containerId === undefined ? {} : { containerId })
      .set('X-Tenant-Id', tenantRef);

  describe('GET /v1/user/profile?fields=', () => {
    it('returns only the requested fields, given as a list or repeated', async () => {
      const u = await givenUser(t, tenant);
      const res = await getProfile(u, '?fields=handle,displayName').expect(200);
      expect(res.body).toEqual({ handle: u.username, displayName: null });

      const repeated = await getProfile(u, '?fields=id&fields=username&fields=createdAt').expect(200);
      expect(Object.keys(repeated.body).sort()).toEqual(['createdAt', 'id', 'username']);
      expect(repeated.body.id).toBe(u.userId);
      expect(repeated.body.username).toBe(u.username);
    });

    it('reads fields[]=a&fields[]=b (axios and most HTTP clients send arrays so) like fields=a&fields=b and fields=a,b', async () => {
      const u = await givenUser(t, tenant);
      for (const query of [
        '?fields[]=id&fields[]=handle',
        '?fields%5B%5D=id&fields%5B%5D=handle',
        '?fields[0]=id&fields[1]=handle',
        '?fields=id&fields=handle',
        '?fields=id,handle',
        '?fields[]=id,handle',
      ]) {
        const res = await getProfile(u, query);
        expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 200, body: { id: u.userId, handle: u.username } });
      }
    });

    it('returns every documented field when all are asked for, with empty values before any update', async () => {
      const u = await givenUser(t, tenant);
      const res = await getProfile(u, '?fields=id,username,handle,displayName,biography,dateOfBirth,address,socials,createdAt').expect(200);
      expect(res.body).toEqual({
        id: u.userId,
        username: u.username,
        handle: u.username,
        displayName: null,
        biography: null,
        dateOfBirth: null,
        address: null,
        socials: [],
        createdAt: expect.any(String),
      });
    });

    it.each([
      ['an unknown field', '?fields=handle,email'],
      ['no fields parameter', ''],
      ['an empty fields parameter', '?fields='],
      ['a private column name', '?fields=passwordHash'],
    ])('refuses %s with 400', async (_name, query) => {
      const u = await givenUser(t, tenant);
      const res = await getProfile(u, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 10002, message: 'generic_client_error', error: 'validation_failed' });
    });

    it('requires a session', async () => {
      await t.http().get('/v1/user/profile?fields=handle').expect(401);
      await t.http().post('/v1/user/profile').send({ biography: 'x' }).expect(401);
      await t.http().get('/v1/user/referrals').expect(401);
    });
  });

  describe('POST /v1/user/profile', () => {
    it('updates every field and returns the whole profile; GET shows the same', async () => {
      const u = await givenUser(t, tenant);
      const body = {
        displayName: 'Ada Lovelace',
        handle: `Ada_${u.userId.slice(0, 6)}`,
        biography: 'First programmer.',
        dateOfBirth: { year: 1990, month: 12, day: 10 },
        address: { addressId: 'home', addressLine1: '12 Analytical Row', city: 'London', postalCode: 'W1 1AA', country: 'GB' },
      };
      const res = await update(u, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...body, id: u.userId, username: u.username, socials: [] });

      const got = await getProfile(u, '?fields=displayName,handle,biography,dateOfBirth,address').expect(200);
      expect(got.body).toEqual(body);
      // The login name is unchanged: the user still logs in with it.
      await t
        .http()
        .post('/v1/user/auth/password/login')
        .set('X-Tenant-Id', tenant.id)
        .send({ username: u.username, password: u.password })
        .expect(200);
    });

    it('keeps absent fields and clears fields set to null', async () => {
      const u = await givenUser(t, tenant);
      await update(u, {
        displayName: 'Grace',
        biography: 'COBOL',
        dateOfBirth: { year: 1980, month: 1, day: 2 },
        address: { city: 'Arlington' },
      }).expect(200);
      await update(u, { biography: 'Compilers' }).expect(200);
      let got = await getProfile(u, '?fields=displayName,biography,dateOfBirth,address').expect(200);
      expect(got.body).toEqual({
        displayName: 'Grace',
        biography: 'Compilers',
        dateOfBirth: { year: 1980, month: 1, day: 2 },
        address: { city: 'Arlington' },
      });

      await update(u, { displayName: null, biography: null, dateOfBirth: null, address: null }).expect(200);
      got = await getProfile(u, '?fields=displayName,biography,dateOfBirth,address').expect(200);
      expect(got.body).toEqual({ displayName: null, biography: null, dateOfBirth: null, address: null });

      // An empty body changes nothing.
      const same = await update(u, {}).expect(200);
      expect(same.body.handle).toBe(u.username);
    });

    it("refuses a handle another user holds, case-insensitively, with 409; changing the case of one's own is fine", async () => {
      const a = await givenUser(t, tenant);
      const b = await givenUser(t, tenant);
      const res = await update(b, { handle: a.username.toUpperCase(), biography: 'should not be saved' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 11002, error: 'handle_taken' });
      // The whole update rolled back.
      const got = await getProfile(b, '?fields=handle,biography').expect(200);
      expect(got.body).toEqual({ handle: b.username, biography: null });

      const own = await update(a, { handle: a.username.toUpperCase() }).expect(200);
      expect(own.body.handle).toBe(a.username.toUpperCase());
    });

    it('gives a handle to exactly one of two users claiming it at once', async () => {
      const a = await givenUser(t, tenant);
      const b = await givenUser(t, tenant);
      const handle = `race_${a.userId.slice(0, 8)}`;
      const results = await Promise.all([update(a, { handle }), update(b, { handle })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it('accepts a date of birth of yesterday and refuses today (moving the clock)', async () => {
      const u = await givenUser(t, tenant);
      t.clock.set(new Date('2030-03-01T10:00:00Z'));
      await update(u, { dateOfBirth: { year: 2030, month: 2, day: 28 } }).expect(200);
      const today = await update(u, { dateOfBirth: { year: 2030, month: 3, day: 1 } });
      expect(today.status).toBe(400);
      expect(today.body).toMatchObject({ code: 10002, error: 'invalid_date_of_birth' });
    });

    describe('bad bodies give 400 {code: 10002}', () => {
      const cases: [string, unknown, string?][] = [
        ['a handle too short', { handle: 'ab' }],
        ['a handle too long', { handle: 'a'.repeat(33) }],
        ['a handle with forbidden characters', { handle: 'bad handle!' }],
        ['a handle starting with a dot', { handle: '.dot' }],
        ['a null handle', { handle: null }],
        ['an empty displayName', { displayName: '' }],
        ['a displayName too long', { displayName: 'x'.repeat(65) }],
        ['a biography too long', { biography: 'x'.repeat(1001) }],
        ['a biography with NUL', { biography: 'a\u0000b' }, 'unsafe_input'],
        ['a date of birth as a string', { dateOfBirth: '1990-01-01' }],
        ['a date of birth as an array', { dateOfBirth: [1990, 1, 1] }],
        ['a date of birth missing the day', { dateOfBirth: { year: 1990, month: 1 } }],
        ['a date of birth with a fractional day', { dateOfBirth: { year: 1990, month: 1, day: 1.5 } }],
        ['a date of birth with month 13', { dateOfBirth: { year: 1990, month: 13, day: 1 } }],
        ['a date of birth before 1900', { dateOfBirth: { year: 1899, month: 12, day: 31 } }],
        ['a date of birth with an extra field', { dateOfBirth: { year: 1990, month: 1, day: 1, hour: 3 } }],
        ['29 February of a non-leap year', { dateOfBirth: { year: 2001, month: 2, day: 29 } }, 'invalid_date_of_birth'],
        ['31 April', { dateOfBirth: { year: 2001, month: 4, day: 31 } }, 'invalid_date_of_birth'],
        ['a date of birth in the future', { dateOfBirth: { year: 2999, month: 1, day: 1 } }, 'invalid_date_of_birth'],
        ['an address with an unknown field', { address: { city: 'Paris', planet: 'Earth' } }],
        ['an address field too long', { address: { city: 'x'.repeat(101) } }],
        ['an address field of the wrong type', { address: { postalCode: 75001 } }],
        ['an address as a string', { address: '1 Main St' }],
        ['an unknown top-level field', { email: 'a@b.c' }],
      ];
      it.each(cases)('%s', async (_name, body, error = 'validation_failed') => {
        const u = await givenUser(t, tenant);
        const res = await update(u, body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 10002, error });
      });
    });
  });

  describe('GET /v1/user/by-id/{username}/public', () => {
    it('shows handle, display name, public socials, XP and rank; never private fields', async () => {
      const community = await givenCommunity(t, tenant);
      const xp = await givenResourceType(t, tenant, community.id);
      const u = await givenUser(t, tenant);
      const leader = await givenUser(t, tenant);
      await t.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
      await grant(t, tenant, u.userId, xp.id, 50).expect(201);
      await grant(t, tenant, leader.userId, xp.id, 100).expect(201);
      const admin = adminApi(t, tenant);
      const slot = await admin.post('/v1/admin/inventory/slots', { communityId: community.id, key: 'head', name: 'Head' }).expect(201);
      await admin.post('/v1/admin/inventory/slots', { communityId: community.id, key: 'feet', name: 'Feet' }).expect(201);
      const crown = await admin
        .post('/v1/admin/inventory/items', {
          communityId: community.id,
          slotId: slot.body.id,
          name: 'Crown',
          imageUrl: 'https://cdn.example.com/crown.png',
        })
        .expect(201);
      await admin.post('/v1/admin/inventory/grants', { userId: u.userId, itemId: crown.body.id, reason: 'test' }).expect(201);
      await t
        .http()
        .post(`/v1/community/${community.id}/inventory/slots/allocate`)
        .set('Authorization', u.auth)
        .send({ slots: [{ slotId: 'head', itemId: crown.body.id }] })
        .expect((r) => expect([200, 201, 204]).toContain(r.status));
      await update(u, {
        displayName: 'Public Name',
        biography: 'SECRET-BIO',
        dateOfBirth: { year: 1991, month: 5, day: 6 },
        address: { addressLine1: 'SECRET-STREET', city: 'SECRET-CITY' },
      }).expect(200);
      const pub = await t
        .http()
        .post('/v1/user/socials')
        .set('Authorization', u.auth)
        .send({
          accountType: 'discord',
          subjectId: `pub-${u.userId}`,
          public: true,
          handle: 'shown#1',
          userToken: 'SECRET-TOKEN',
          extraArgs: { k: 'SECRET-EXTRA' },
        })
        .expect(201);
      await t
        .http()
        .post('/v1/user/socials')
        .set('Authorization', u.auth)
        .send({ accountType: 'steam', subjectId: `hidden-${u.userId}`, public: false, handle: 'SECRET-HIDDEN' })
        .expect(201);

      for (const ref of [u.username.toUpperCase(), u.userId]) {
        for (const containerId of [community.slug, community.id]) {
          const res = await publicProfile(ref, containerId);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({
            userId: u.userId,
            handle: u.username,
            displayName: 'Public Name',
            avatar: [
              {
                slotKey: 'head',
                slotName: 'Head',
                itemId: crown.body.id,
                name: 'Crown',
                imageUrl: 'https://cdn.example.com/crown.png',
                rarity: expect.any(String),
              },
            ],
            socials: [{ accountType: 'discord', subjectId: pub.body.subjectId, handle: 'shown#1', server: null }],
            communityId: community.id,
            member: true,
            xpResource: xp.slug,
            xp: 50,
            rank: 2,
          });
          const dump = JSON.stringify(res.body);
          expect(dump).not.toMatch(/SECRET|1991|biography|address|dateOfBirth|username|token|password/i);
        }
      }
      const top = await publicProfile(leader.username, community.slug).expect(200);
      expect(top.body).toMatchObject({ member: false, xp: 100, rank: 1 });
    });

    it('works with a session too, and in a community without XP (member false, 0 XP, unranked)', async () => {
      const community = await givenCommunityRow(t, tenant);
      const u = await givenUser(t, tenant);
      const viewer = await givenUser(t, tenant);
      const res = await t
        .http()
        .get(`/v1/user/by-id/${u.username}/public?containerId=${community.slug}`)
        .set('Authorization', viewer.auth)
        .set('X-Tenant-Id', tenant.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ userId: u.userId, member: false, xpResource: null, xp: 0, rank: null, socials: [], avatar: [] });
    });

    it("finds the page by the login username after a handle change, never shows the username, and prefers a handle to another user's username", async () => {
      const community = await givenCommunityRow(t, tenant);
      const u = await givenUser(t, tenant);
      const newHandle = `renamed_${u.userId.slice(0, 8)}`;
      await update(u, { handle: newHandle }).expect(200);
      await publicProfile(newHandle, community.slug).expect(200);
      const byUsername = await publicProfile(u.username.toUpperCase(), community.slug);
      expect(byUsername.status).toBe(200);
      expect(byUsername.body).toMatchObject({ userId: u.userId, handle: newHandle });
      expect(JSON.stringify(byUsername.body)).not.toContain(u.username);
      // Another user takes u's old login name as a handle: the handle wins.
      const squatter = await givenUser(t, tenant);
      await update(squatter, { handle: u.username }).expect(200);
      expect((await publicProfile(u.username, community.slug)).body).toMatchObject({ userId: squatter.userId });
    });

    it('404 for an unknown user, a user of another tenant, or an unknown community; 400 without containerId', async () => {
      const community = await givenCommunityRow(t, tenant);
      const u = await givenUser(t, tenant);
      const other = await t.givenTenant();
      const stranger = await givenUser(t, other);
      expect((await publicProfile('nobody_at_all', community.slug)).status).toBe(404);
      expect((await publicProfile(stranger.username, community.slug)).status).toBe(404);
      expect((await publicProfile(stranger.userId, community.slug)).status).toBe(404);
      const noCommunity = await publicProfile(u.username, 'no-such-community');
      expect(noCommunity.status).toBe(404);
      expect(noCommunity.body.error).toBe('community_not_found');
      // Another tenant's community is not found either.
      const otherCommunity = await givenCommunityRow(t, other);
      expect((await publicProfile(u.username, otherCommunity.id)).status).toBe(404);
      const missing = await publicProfile(u.username);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe(10002);
      expect((await publicProfile('x'.repeat(37), community.slug)).status).toBe(400);
    });
  });

  describe('GET /v1/user/referrals', () => {
    it("lists the handles the user referred, at sign-up and into communities, newest first; nobody else's", async () => {
      const referrer = await givenUser(t, tenant);
      const first = await givenUser(t, tenant);
      const second = await givenUser(t, tenant);
      const unrelated = await givenUser(t, tenant);
      const community = await givenCommunityRow(t, tenant);
      const referrals = t.app.get(ReferralsService);
      await t.dataSource.transaction((em) =>
        referrals.record(em, { tenantId: tenant.id, referrerId: referrer.userId, referredId: first.userId }),
      );
      await t.dataSource.query("UPDATE referrals SET created_at = now() - interval '1 minute' WHERE referred_id = $1", [first.userId]);
      await t.dataSource.transaction((em) =>
        referrals.record(em, { tenantId: tenant.id, referrerId: referrer.userId, referredId: second.userId, communityId: community.id }),
      );
      await t.dataSource.transaction((em) =>
        referrals.record(em, { tenantId: tenant.id, referrerId: unrelated.userId, referredId: referrer.userId }),
      );

      const res = await t.http().get('/v1/user/referrals').set('Authorization', referrer.auth).expect(200);
      expect(res.body).toEqual([
        { handle: second.username, userId: second.userId, communityId: community.id, referredAt: expect.any(String) },
        { handle: first.username, userId: first.userId, communityId: null, referredAt: expect.any(String) },
      ]);
      const none = await t.http().get('/v1/user/referrals').set('Authorization', first.auth).expect(200);
      expect(none.body).toEqual([]);
    });
  });
});
