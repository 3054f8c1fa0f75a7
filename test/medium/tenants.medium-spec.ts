import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { MAX_TENANT_DOMAINS, TenantsService } from '../../src/tenants/tenants.service.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { domainErrorOf, numbers, uniqueName } from './fixtures.js';

/**
 * TenantsService on a database of its own (it starts with no tenant): the default tenant of a
 * first start, which tenant a request runs in, domains, credentials and settings.
 */
describe('TenantsService (medium: TenantsModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let tenants: TenantsService;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [TenantsModule] });
    tenants = t.get(TenantsService);
  });
  afterAll(() => t?.close());

  it('a first start creates one default tenant, printed once; it is then the tenant of a request naming none, until a second exists', async () => {
    expect(await tenants.count()).toBe(0);
    const printed: { slug: string; apiKey: string }[] = [];
    await Promise.all([tenants.ensureDefaultTenant((c) => printed.push(c)), tenants.ensureDefaultTenant((c) => printed.push(c))]);
    await tenants.ensureDefaultTenant((c) => printed.push(c));
    expect(printed).toHaveLength(1);
    expect(printed[0].slug).toBe('default');
    const only = (await tenants.list())[0];
    expect(await tenants.count()).toBe(1);
    expect(await tenants.resolveForRequest({})).toBe(only.id);
    expect((await tenants.findByApiKey(printed[0].apiKey))?.id).toBe(only.id);

    const second = await tenants.create({ slug: uniqueName('t') });
    expect(await domainErrorOf(tenants.resolveForRequest({}))).toBe('tenant_required');
    // Named by header, path or session, it is found; a session of another tenant than the header's is refused.
    expect(await tenants.resolveForRequest({ header: second.slug })).toBe(second.id);
    expect(await tenants.resolveForRequest({ path: second.id })).toBe(second.id);
    expect(await domainErrorOf(tenants.resolveForRequest({ header: second.slug, session: only.id }))).toBe('tenant_mismatch');
    expect(await domainErrorOf(tenants.resolveForRequest({ header: 'nobody' }))).toBe('unknown_tenant');
  });

  it("domains: set, add and remove normalised names; another tenant's domain and too many are refused; a host names its tenant", async () => {
    const [a, b] = [await tenants.create({ slug: uniqueName('t') }), await tenants.create({ slug: uniqueName('t') })];
    const host = `${uniqueName('play')}.example.com`;
    expect((await tenants.changeDomains(a.slug, { set: [host.toUpperCase(), `www.${host}`] })).domains).toEqual([host, `www.${host}`]);
    // Without `set`, the current list is kept and changed.
    expect((await tenants.changeDomains(a.id, { add: [`api.${host}`], remove: [`www.${host}`] })).domains).toEqual([`api.${host}`, host]);
    expect(await tenants.resolveForRequest({ host })).toBe(a.id);

    expect(await domainErrorOf(tenants.changeDomains(b.id, { add: [host] }))).toBe('domain_taken');
    expect(await domainErrorOf(tenants.changeDomains(b.id, { add: ['not a domain!'] }))).toBe('invalid_domain');
    const many = Array.from({ length: MAX_TENANT_DOMAINS + 1 }, (_, i) => `d${i}.${host}`);
    expect(await domainErrorOf(tenants.changeDomains(b.id, { set: many }))).toBe('invalid_domain');
    expect((await tenants.view(b.id)).domains).toEqual([]);
    expect(await domainErrorOf(tenants.view('no-such-tenant'))).toBe('unknown_tenant');
  });

  it('rotate replaces the API key and/or the shared secret (a given one or a new one); settings merge; unknown tenants are refused', async () => {
    const created = await tenants.create({ slug: uniqueName('t'), name: 'Acme', sharedSecret: 'a'.repeat(64) });
    expect(await tenants.sharedSecret(await tenants.getById(created.id))).toBe('a'.repeat(64));

    const keyOnly = await tenants.rotate(created.slug, { apiKey: true, sharedSecret: false });
    expect(keyOnly.sharedSecret).toBeUndefined();
    expect(await tenants.findByApiKey(created.apiKey)).toBeNull();
    expect((await tenants.findByApiKey(keyOnly.apiKey!))?.id).toBe(created.id);

    const given = await tenants.rotate(created.id, { sharedSecret: 'b'.repeat(64) });
    expect(given).toEqual({ id: created.id, slug: created.slug, sharedSecret: 'b'.repeat(64) });
    expect(await tenants.sharedSecret(await tenants.getById(created.id))).toBe('b'.repeat(64));
    const fresh = await tenants.rotate(created.id, { sharedSecret: true });
    expect(fresh.sharedSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(await tenants.sharedSecret(await tenants.getById(created.id))).toBe(fresh.sharedSecret);

    await tenants.updateSettings(created.id, { primaryAccountLogin: true });
    const settled = await tenants.updateSettings(created.slug, { siweAllowedChainIds: [1] });
    expect(settled.settings).toEqual({ primaryAccountLogin: true, siweAllowedChainIds: [1] });

    expect(await domainErrorOf(tenants.rotate('no-such-tenant', { apiKey: true }))).toBe('unknown_tenant');
    expect(await domainErrorOf(tenants.updateSettings('no-such-tenant', {}))).toBe('unknown_tenant');
    // An API key longer than any issued one is not even looked up.
    expect(await tenants.findByApiKey('k'.repeat(201))).toBeNull();
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM tenants WHERE slug = $1', [created.slug])).toEqual({ n: 1 });
  });
});

describe('TenantsService with DEFAULT_TENANT (medium)', () => {
  let t: ModuleTest;
  const slug = uniqueName('main');

  beforeAll(async () => {
    t = await createModuleTest({ imports: [TenantsModule], env: { DEFAULT_TENANT: slug } });
  });
  afterAll(() => t?.close());

  it('start-up accepts a DEFAULT_TENANT about to be made or made, refuses an unknown one; a request naming no tenant runs in it', async () => {
    const tenants = t.get(TenantsService);
    await expect(tenants.checkDefaultTenant()).rejects.toThrow(/names no tenant/);
    await tenants.checkDefaultTenant([slug]);
    const main = await tenants.create({ slug });
    await tenants.create({ slug: uniqueName('t') });
    await tenants.checkDefaultTenant();
    expect(await tenants.resolveForRequest({ host: 'unknown.example.com' })).toBe(main.id);
  });
});
