import { API_SECURITY_HEADERS } from '../../src/common/security/response-headers.js';
import { useTestApp } from '../helpers/test-app.js';

/** helmet's headers that only mean something for HTML documents; JSON answers do without them. */
const HTML_ONLY = [
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('security headers (docs/decisions.md, "Security headers")', () => {
  const t = useTestApp({}, { swagger: true });
  let tenantId: string;
  beforeAll(async () => {
    tenantId = (await t.givenTenant()).id;
  });

  const lowerCased = Object.fromEntries(Object.entries(API_SECURITY_HEADERS).map(([k, v]) => [k.toLowerCase(), v]));

  it.each([
    ['an answer', '/health', 200],
    ['an error body', '/v1/community/no-such-community', 404],
    ['a refusal', '/v1/user/profile', 401],
    ['an unknown path', '/nowhere', 404],
    ['the OpenAPI document', '/docs-json', 200],
  ])('gives %s the API set (OWASP REST), no ETag and none of the HTML-only headers', async (_what, path, status) => {
    const res = await t.http().get(path).set('X-Tenant-Id', tenantId);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/);
    expect(res.headers).toMatchObject(lowerCased);
    expect(res.headers.etag).toBeUndefined();
    expect(HTML_ONLY.filter((h) => h in res.headers)).toEqual([]);
  });

  it("gives Swagger UI's pages helmet's full set, scripts and styles limited to the origin", async () => {
    const ui = await t.http().get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(ui.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(ui.headers['x-content-type-options']).toBe('nosniff');
  });
});
