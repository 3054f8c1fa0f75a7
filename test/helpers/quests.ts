import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenUser, type TestUser } from './factories.js';
import { adminApi, givenCommunity, givenResourceType, type TestCommunity } from './communities.js';
import type { TestApp } from './test-app.js';

let n = 0;
export const HOUR = 3600_000;

export interface TestEvent {
  id: string;
  slug: string;
  communityId: string;
  scoreTypeId: string;
  startsAt: Date;
  endsAt: Date;
}

/** The management API with PUT/DELETE too. */
export function admin(t: TestApp, tenant: TenantCredentials) {
  return {
    ...adminApi(t, tenant),
    put: (path: string, body: object = {}) => t.http().put(path).set('X-Api-Key', tenant.apiKey).send(body),
  };
}

/**
 * A published event with a scoped score resource, relative to the fake clock: registration opens
 * in 1 h and closes in 3 h, the event runs from 2 h to 10 h.
 */
export async function givenEvent(
  t: TestApp,
  tenant: TenantCredentials,
  community: TestCommunity,
  fields: Record<string, unknown> = {},
): Promise<TestEvent> {
  const now = t.clock.now().getTime();
  const at = (h: number) => new Date(now + h * HOUR);
  const body = {
    communityId: community.id,
    slug: `ev-${++n}-${Math.random().toString(36).slice(2, 7)}`,
    name: 'Spring Cup',
    registrationStartsAt: at(1),
    registrationEndsAt: at(3),
    startsAt: at(2),
    endsAt: at(10),
    ...fields,
  };
  const res = await adminApi(t, tenant).post('/v1/admin/quest-events', body);
  if (res.status !== 201) throw new Error(`create event failed: ${res.status} ${JSON.stringify(res.body)}`);
  const score = await givenResourceType(t, tenant, community.id, { kind: 'scoped', name: 'Points', questEventId: res.body.id });
  const upd = await adminApi(t, tenant).patch(`/v1/admin/quest-events/${res.body.id}`, { scoreResourceTypeId: score.id });
  if (upd.status !== 200) throw new Error(`set score type failed: ${upd.status} ${JSON.stringify(upd.body)}`);
  return {
    id: res.body.id,
    slug: body.slug,
    communityId: community.id,
    scoreTypeId: score.id,
    startsAt: new Date(body.startsAt),
    endsAt: new Date(body.endsAt),
  };
}

/** A quest of the event crediting `points` of its score resource. */
export async function givenEventQuest(
  t: TestApp,
  tenant: TenantCredentials,
  event: TestEvent,
  points: number,
  fields: Record<string, unknown> = {},
): Promise<{ id: string }> {
  const res = await adminApi(t, tenant).post('/v1/admin/quests', {
    communityId: event.communityId,
    questEventId: event.id,
    name: `Quest ${++n}`,
    type: 'match',
    rewards: [{ type: 'resource', resourceTypeId: event.scoreTypeId, amount: points }],
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create quest failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A user who joined the community. */
export async function givenMember(t: TestApp, tenant: TenantCredentials, community: TestCommunity): Promise<TestUser> {
  const u = await givenUser(t, tenant);
  const res = await t.http().post(`/v1/community/${community.id}/join?referrerHandle=`).set('Authorization', u.auth);
  if (res.status !== 201) throw new Error(`join failed: ${res.status}`);
  return u;
}

export async function givenMembers(t: TestApp, tenant: TenantCredentials, community: TestCommunity, count: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < count; i++) out.push(await givenMember(t, tenant, community));
  return out;
}

/** User calls on an event: `call(user, 'post', '/participant/register')`. */
export function eventApi(t: TestApp, event: { id: string }) {
  return (u: TestUser, method: 'get' | 'post' | 'put', path = '', body?: object) => {
    const req = t.http()[method](`/v1/quest-event/${event.id}${path}`).set('Authorization', u.auth);
    return body ? req.send(body) : req;
  };
}

export { givenCommunity, givenUser };
