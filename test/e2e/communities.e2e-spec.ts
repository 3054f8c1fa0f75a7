import { useTestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import { adminApi, givenCommunity } from '../helpers/communities.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';

describe('communities, membership and referrals', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  let other: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
    other = await t.givenTenant();
  });

  const pub = (path: string) => t.http().get(path).set('X-Tenant-Id', tenant.id);

  describe('management API', () => {
    it('creates, reads and updates a community, by id and by slug', async () => {
      const admin = adminApi(t, tenant);
      const created = await admin.post('/v1/admin/communities', {
        slug: 'space-pirates',
        name: 'Space Pirates',
        description: 'Outer rim crew',
        imageUrl: 'https://cdn.example.com/logo.png',
        links: [{ label: 'Discord', url: 'https://discord.gg/x' }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        slug: 'space-pirates',
        name: 'Space Pirates',
        memberCount: 0,
        bannerUrl: null,
        links: [{ label: 'Discord', url: 'https://discord.gg/x' }],
      });

      const bySlug = await pub('/v1/community/SPACE-PIRATES');
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual(created.body);
      expect((await pub(`/v1/community/${created.body.id}`)).body.id).toBe(created.body.id);

      const updated = await admin.patch(`/v1/admin/communities/${created.body.id}`, {
        name: 'Pirates',
        bannerUrl: 'https://cdn.example.com/b.png',
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        name: 'Pirates',
        slug: 'space-pirates',
        bannerUrl: 'https://cdn.example.com/b.png',
        description: 'Outer rim crew',
      });

      const list = await admin.get('/v1/admin/communities?limit=1');
      expect(list.body).toMatchObject({ page: 1, limit: 1, total: 1, hasNextPage: false });
    });

    it('refuses a taken slug with 409 and a uuid-shaped or reserved slug with 400', async () => {
      const admin = adminApi(t, tenant);
      await givenCommunity(t, tenant, { slug: 'taken' });
      expect((await admin.post('/v1/admin/communities', { slug: 'taken', name: 'x' })).body).toMatchObject({
        code: 20002,
        error: 'community_slug_taken',
      });
      const uuidSlug = await admin.post('/v1/admin/communities', { slug: '3b241101-e2bb-4255-8caf-4136c566a962', name: 'x' });
      expect(uuidSlug.status).toBe(400);
      expect((await admin.post('/v1/admin/communities', { slug: 'resource-types', name: 'x' })).status).toBe(400);
      expect((await admin.post('/v1/admin/communities', { slug: 'Bad Slug', name: 'x' })).body).toMatchObject({ code: 10002 });
      // Another tenant may use the same slug.
      expect((await adminApi(t, other).post('/v1/admin/communities', { slug: 'taken', name: 'x' })).status).toBe(201);
    });

    it("answers 401 without or with a wrong API key, and 404 for another tenant's community", async () => {
      const c = await givenCommunity(t, tenant);
      expect((await t.http().get(`/v1/admin/communities/${c.id}`)).body).toMatchObject({
        code: 10413,
        message: 'GENERIC_UNAUTHORIZED',
        error: 'api_key_missing',
      });
      expect((await t.http().get(`/v1/admin/communities/${c.id}`).set('X-Api-Key', 'cgs_key_wrong')).status).toBe(401);
      const foreign = await adminApi(t, other).get(`/v1/admin/communities/${c.id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: 20001, error: 'community_not_found' });
      expect((await adminApi(t, other).patch(`/v1/admin/communities/${c.id}`, { name: 'hijack' })).status).toBe(404);
      expect((await t.http().get(`/v1/community/${c.id}`).set('X-Tenant-Id', other.id)).status).toBe(404);
    });
  });

  describe('join and referrals', () => {
    it('joins idempotently: 201 then 200, one membership, member count 1', async () => {
      const c = await givenCommunity(t, tenant);
      const u = await givenUser(t, tenant);
      const first = await t.http().post(`/v1/community/${c.slug}/join?referrerHandle=`).set('Authorization', u.auth);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ communityId: c.id, userId: u.userId, referrerHandle: null, created: true });
      const again = await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ created: false, joinedAt: first.body.joinedAt });
      expect((await pub(`/v1/community/${c.id}`)).body.memberCount).toBe(1);
    });

    it('counts concurrent joins of the same user once', async () => {
      const c = await givenCommunity(t, tenant);
      const u = await givenUser(t, tenant);
      const res = await Promise.all(
        Array.from({ length: 8 }, () => t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth)),
      );
      expect(res.filter((r) => r.status === 201)).toHaveLength(1);
      expect(res.filter((r) => r.status === 200)).toHaveLength(7);
      expect((await pub(`/v1/community/${c.id}`)).body.memberCount).toBe(1);
    });

    it('records the referrer and lists the referred members to the referrer only', async () => {
      const c = await givenCommunity(t, tenant);
      const [ref, a, b, stranger] = await Promise.all([
        givenUser(t, tenant),
        givenUser(t, tenant),
        givenUser(t, tenant),
        givenUser(t, tenant),
      ]);
      await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', ref.auth).expect(201);
      const handle = (await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', ref.auth)).body;
      expect(handle.created).toBe(false);
      const refHandle = ref.username; // a password user's handle is the username
      const ja = await t
        .http()
        .post(`/v1/community/${c.id}/join`)
        .query({ referrerHandle: refHandle.toUpperCase() })
        .set('Authorization', a.auth);
      expect(ja.status).toBe(201);
      expect(ja.body.referrerHandle).toBe(refHandle);
      t.clock.advance(1000);
      await t.http().post(`/v1/community/${c.id}/join`).query({ referrerHandle: refHandle }).set('Authorization', b.auth).expect(201);

      const list = await t.http().get(`/v1/community/${c.slug}/referrals`).set('Authorization', ref.auth);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 2, page: 1, hasNextPage: false });
      expect(list.body.items.map((i: { userId: string }) => i.userId)).toEqual([b.userId, a.userId]);
      const paged = await t.http().get(`/v1/community/${c.id}/referrals?limit=1&page=2`).set('Authorization', ref.auth);
      expect(paged.body.items.map((i: { userId: string }) => i.userId)).toEqual([a.userId]);

      expect((await t.http().get(`/v1/community/${c.id}/referrals`).set('Authorization', stranger.auth)).body.total).toBe(0);
    });

    it('refuses a referrer who is not a member, an unknown handle and self-referral with 400', async () => {
      const c = await givenCommunity(t, tenant);
      const [outsider, u] = await Promise.all([givenUser(t, tenant), givenUser(t, tenant)]);
      const notMember = await t
        .http()
        .post(`/v1/community/${c.id}/join`)
        .query({ referrerHandle: outsider.username })
        .set('Authorization', u.auth);
      expect(notMember.status).toBe(400);
      expect(notMember.body).toMatchObject({ code: 10002, error: 'unknown_referrer' });
      expect(
        (await t.http().post(`/v1/community/${c.id}/join`).query({ referrerHandle: 'nobody_at_all' }).set('Authorization', u.auth)).body
          .error,
      ).toBe('unknown_referrer');
      const self = await t.http().post(`/v1/community/${c.id}/join`).query({ referrerHandle: u.username }).set('Authorization', u.auth);
      expect(self.body).toMatchObject({ code: 10002, error: 'self_referral' });
      expect((await t.http().post(`/v1/community/${c.id}/join`).set('Authorization', u.auth)).body).toMatchObject({ code: 10002 });
      expect((await pub(`/v1/community/${c.id}`)).body.memberCount).toBe(0);
    });

    it('requires a session to join and 404s an unknown community', async () => {
      const c = await givenCommunity(t, tenant);
      expect((await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('X-Tenant-Id', tenant.id)).status).toBe(401);
      const u = await givenUser(t, tenant);
      expect((await t.http().post('/v1/community/no-such-community/join?referrerHandle=').set('Authorization', u.auth)).body).toMatchObject(
        { code: 20001 },
      );
      expect((await pub('/v1/community/no-such-community')).status).toBe(404);
    });
  });
});
