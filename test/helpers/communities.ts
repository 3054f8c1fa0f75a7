import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestApp } from './test-app.js';

let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

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

export interface TestCommunity {
  id: string;
  slug: string;
  name: string;
}

/** A community created through the management API. */
export async function givenCommunity(t: TestApp, tenant: TenantCredentials, fields: Record<string, unknown> = {}): Promise<TestCommunity> {
  const res = await adminApi(t, tenant).post('/v1/admin/communities', { slug: unique('c'), name: 'Test community', ...fields });
  if (res.status !== 201) throw new Error(`create community failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A resource type created through the management API (global XP unless told). */
export async function givenResourceType(
  t: TestApp,
  tenant: TenantCredentials,
  communityId: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; slug: string }> {
  const res = await adminApi(t, tenant).post('/v1/admin/resources/types', {
    communityId,
    slug: unique('r'),
    name: 'XP',
    kind: 'global',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create resource type failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Grants `amount` through the management API; returns the response. */
export function grant(
  t: TestApp,
  tenant: TenantCredentials,
  userId: string,
  resourceTypeId: string,
  amount: number,
  idempotencyKey = unique('k'),
) {
  return adminApi(t, tenant).post('/v1/admin/resources/grants', { userId, resourceTypeId, amount, reason: 'test', idempotencyKey });
}
