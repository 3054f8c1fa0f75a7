import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { loginToken } from '../helpers/auth.js';
import { givenUser } from '../helpers/factories.js';
import { useTestApp } from '../helpers/test-app.js';
import { uniqueName } from '../factories/unique-name.js';

/** Staff-like handles (issue 46): a player cannot take `admin`, `support`, the tenant's name... */
describe('reserved handles', () => {
  const t = useTestApp();
  let tenant: TenantCredentials;
  const reserved = { code: 10002, message: 'generic_client_error', error: 'handle_reserved' };

  beforeAll(async () => {
    tenant = await t.app.get(TenantsService).create({ slug: uniqueName('acme'), name: 'Acme Games' });
  });

  const register = (username: string, tenantId = tenant.id) =>
    t.http().post('/v1/user/register/password').set('X-Tenant-Id', tenantId).send({ username, password: 'correct horse battery' });

  it.each(['admin', 'Support', 'MODERATOR', 'm0derator_7', 'adm1n', 'staff.42', 'Acme_Games', 'acme-games'])(
    'refuses to register %s, and registers nobody',
    async (username) => {
      const r = await register(username);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject(reserved);
      expect(r.body.detail).toContain('reserved');
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM users WHERE tenant_id = $1 AND username_normalized = $2', [
        tenant.id,
        username.toLowerCase(),
      ]);
      expect(n).toBe(0);
    },
  );

  it('lets handles that only contain a reserved word through', async () => {
    for (const username of ['the_admin', 'supporter', 'modest', 'teamrocket', 'acme_fan'])
      expect((await register(username)).status).toBe(201);
  });

  it('refuses a reserved handle in a profile change, and keeps the old one', async () => {
    const u = await givenUser(t, tenant);
    const r = await t.http().post('/v1/user/profile').set('Authorization', u.auth).send({ handle: 'Official' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(reserved);
    const profile = await t.http().get('/v1/user/profile?fields=handle').set('Authorization', u.auth).expect(200);
    expect(profile.body.handle).toBe(u.username);
    expect((await t.http().post('/v1/user/profile').set('Authorization', u.auth).send({ handle: 'captain_ada' })).status).toBe(200);
  });

  it('gives a provider login whose name is reserved a neutral handle instead', async () => {
    const token = await loginToken(t, tenant.sharedSecret, { subjectId: uniqueName('s'), handle: 'Admin' });
    const r = await t.http().post('/v1/user/auth/providerB/login').set('X-Tenant-Id', tenant.id).send({ token });
    expect(r.status).toBe(200);
    const [user] = await t.dataSource.query('SELECT handle FROM users WHERE id = $1', [r.body.userId]);
    expect(user.handle).toMatch(/^user_\d{4}$/);
  });

  it("takes a tenant's own list in place of the default one, and refuses an invalid list", async () => {
    const tenants = t.app.get(TenantsService);
    const own = await tenants.create({ slug: uniqueName('own'), settings: { reservedHandles: ['vip', 'Ranger'] } });
    expect((await register('VIP_1', own.id)).body).toMatchObject(reserved);
    expect((await register('r4nger', own.id)).body).toMatchObject(reserved);
    expect((await register('admin', own.id)).status).toBe(201);
    for (const bad of ['vip', [''], [42], Array.from({ length: 1001 }, (_, i) => `h${i}`), ['x'.repeat(65)]])
      await expect(tenants.updateSettings(own.id, { reservedHandles: bad as never })).rejects.toMatchObject({
        definition: { status: 400 },
      });
  });
});
