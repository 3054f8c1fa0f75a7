import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import type { TestUser } from '../factories/e2e.js';
import { adminApi } from './admin-api.js';
import type { TestApp } from './test-app.js';

export const HOUR = 3600_000;

/** The management API with PUT/DELETE too. */
export function admin(t: TestApp, tenant: TenantCredentials) {
  return {
    ...adminApi(t, tenant),
    put: (path: string, body: object = {}) => t.http().put(path).set('X-Api-Key', tenant.apiKey).send(body),
  };
}

/** User calls on an event: `call(user, 'post', '/participant/register')`. */
export function eventApi(t: TestApp, event: { id: string }) {
  return (u: TestUser, method: 'get' | 'post' | 'put', path = '', body?: object) => {
    const req = t.http()[method](`/v1/quest-event/${event.id}${path}`).set('Authorization', u.auth);
    return body ? req.send(body) : req;
  };
}

// The e2e factories live in test/factories/e2e.ts; these names stay for the specs that import them here.
export { givenCommunity, givenEvent, givenEventQuest, givenMember, givenMembers, givenUser, type TestEvent } from '../factories/e2e.js';
