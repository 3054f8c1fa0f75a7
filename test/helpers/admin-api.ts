import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestApp } from './test-app.js';

/** The management API of one tenant (X-Api-Key). */
export function adminApi(t: TestApp, tenant: TenantCredentials) {
  const call = (method: 'get' | 'post' | 'patch', path: string, body?: object) => {
    const req = t.http()[method](path).set('X-Api-Key', tenant.apiKey);
    return body ? req.send(body) : req;
  };
  return {
    get: (path: string) => call('get', path),
    post: (path: string, body: object) => call('post', path, body),
    patch: (path: string, body: object) => call('patch', path, body),
  };
}
