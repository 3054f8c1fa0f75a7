import { RouteIndex } from '../../src/common/http/route-index.js';
import { useTestApp } from '../helpers/test-app.js';

/** Outside `/v1` an unknown path answered Express's HTML "Cannot GET" page; it is the API's JSON 404 too. */
describe('unknown paths outside /v1', () => {
  const t = useTestApp({}, { swagger: true });

  const expectJson404 = async (method: 'get' | 'post' | 'delete' | 'head', path: string) => {
    const res = await t.http()[method](path);
    expect({ method, path, status: res.status, type: res.headers['content-type'] }).toEqual({
      method,
      path,
      status: 404,
      type: expect.stringMatching(/^application\/json/),
    });
    if (method !== 'head')
      expect(res.body).toMatchObject({ code: 10004, message: 'not_found', error: 'not_found', detail: expect.any(String) });
  };

  it.each([
    ['get', '/'],
    ['get', '/foo'],
    ['get', '/foo/bar?x=1'],
    ['head', '/foo'],
    ['post', '/docs/x'],
    ['delete', '/docs-json'],
  ] as const)('answers %s %s with 404 JSON {code, message, error, detail}', async (method, path) => {
    await expectJson404(method, path);
  });

  it('answers a missing Swagger asset in JSON while Swagger UI, the OpenAPI document and the health checks still answer', async () => {
    await expectJson404('get', '/docs/no-such-asset.js');
    const ui = await t.http().get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.headers['content-type']).toMatch(/html/);
    const doc = await t.http().get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ openapi: expect.any(String) });
    expect((await t.http().get('/health')).status).toBe(200);
    expect((await t.http().get('/health/ready')).status).toBe(200);
  });

  // The API's routes are indexed by their first two segments (src/common/http/route-index.ts);
  // every e2e suite goes through the index, these the paths it does not answer.
  it('indexes the API by prefix, and answers what no route of a prefix matches as before', async () => {
    expect(t.app.get(RouteIndex).prefixes).toEqual(expect.arrayContaining(['/v1/admin', '/v1/community', '/v1/quest-event', '/v1/user']));
    for (const path of ['/v1/community', '/v1/admin/no-such-thing', '/v1/no-such-prefix/x']) {
      const res = await t.http().get(path).set('X-Tenant-Id', 'default');
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error: 'not_found' });
    }
    const options = await t.http().options('/v1/community/x');
    expect(options.status).toBe(404);
  });
});
