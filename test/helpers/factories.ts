import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestApp } from './test-app.js';

export interface TestUser {
  userId: string;
  username: string;
  password: string;
  sessionToken: string;
  refreshToken: string;
  tenant: TenantCredentials;
  /** `Authorization` header value. */
  auth: string;
}

let n = 0;

/** Registers a password user in the tenant through the public API. */
export async function givenUser(
  t: TestApp,
  tenant: TenantCredentials,
  username = `user${++n}_${Math.random().toString(36).slice(2, 7)}`,
): Promise<TestUser> {
  const password = 'correct horse battery';
  const res = await t.http().post('/v1/user/register/password').set('X-Tenant-Id', tenant.id).send({ username, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...res.body, username, password, tenant, auth: `Bearer ${res.body.sessionToken}` };
}
