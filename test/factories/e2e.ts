import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi } from '../helpers/admin-api.js';
import type { TestApp } from '../helpers/test-app.js';
import {
  communityInput,
  eventQuestInput,
  idempotencyKey,
  itemInput,
  listingInput,
  prizeInput,
  questEventInput,
  requirementInput,
  resourceTypeInput,
  slotInput,
  userInput,
} from './inputs.js';
import { uniqueName } from './unique-name.js';

// The e2e harness's factories: each entity made through the public or management API of a
// TestApp (test/helpers/test-app.ts), from the inputs the medium factories use too.

type Fields = Record<string, unknown>;
type Response = { status: number; body: unknown };

/** The body of a response of `status`, else a thrown error naming what failed. */
const expectStatus = (res: Response, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies of the management API, read field by field by the tests
};

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

export interface TestCommunity {
  id: string;
  slug: string;
  name: string;
}

export interface TestEvent {
  id: string;
  slug: string;
  communityId: string;
  scoreTypeId: string;
  startsAt: Date;
  endsAt: Date;
}

/** A password user of the tenant with a session, registered through the public API. */
export async function givenUser(t: TestApp, tenant: TenantCredentials, username = userInput().username): Promise<TestUser> {
  const { password } = userInput();
  const res = await t.http().post('/v1/user/register/password').set('X-Tenant-Id', tenant.id).send({ username, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...res.body, username, password, tenant, auth: `Bearer ${res.body.sessionToken}` };
}

/** A community created through the management API. */
export async function givenCommunity(t: TestApp, tenant: TenantCredentials, fields: Fields = {}): Promise<TestCommunity> {
  return expectStatus(
    await adminApi(t, tenant).post('/v1/admin/communities', communityInput(fields)),
    201,
    'create community',
  ) as TestCommunity;
}

/** A resource type created through the management API (global XP unless told). */
export async function givenResourceType(
  t: TestApp,
  tenant: TenantCredentials,
  communityId: string,
  fields: Fields = {},
): Promise<{ id: string; slug: string }> {
  const res = await adminApi(t, tenant).post('/v1/admin/resources/types', resourceTypeInput(communityId, fields));
  return expectStatus(res, 201, 'create resource type') as { id: string; slug: string };
}

/** Grants `amount` through the management API; returns the response. */
export function grant(
  t: TestApp,
  tenant: TenantCredentials,
  userId: string,
  resourceTypeId: string,
  amount: number,
  key = idempotencyKey(),
) {
  return adminApi(t, tenant).post('/v1/admin/resources/grants', { userId, resourceTypeId, amount, reason: 'test', idempotencyKey: key });
}

/** A published quest event (see `questEventInput` for its hours on the fake clock) with a scoped score resource of its own. */
export async function givenEvent(t: TestApp, tenant: TenantCredentials, community: TestCommunity, fields: Fields = {}): Promise<TestEvent> {
  const admin = adminApi(t, tenant);
  const body = questEventInput(community.id, t.clock.now().getTime(), fields);
  const event = expectStatus(await admin.post('/v1/admin/quest-events', body), 201, 'create event');
  const score = await givenResourceType(t, tenant, community.id, { kind: 'scoped', name: 'Points', questEventId: event.id });
  expectStatus(await admin.patch(`/v1/admin/quest-events/${event.id}`, { scoreResourceTypeId: score.id }), 200, 'set score type');
  return {
    id: event.id,
    slug: body.slug,
    communityId: community.id,
    scoreTypeId: score.id,
    startsAt: new Date(body.startsAt),
    endsAt: new Date(body.endsAt),
  };
}

/** A quest of the event crediting `points` of its score resource. */
export async function givenEventQuest(t: TestApp, tenant: TenantCredentials, event: TestEvent, points: number, fields: Fields = {}) {
  const res = await adminApi(t, tenant).post('/v1/admin/quests', eventQuestInput(event, event.scoreTypeId, points, fields));
  return expectStatus(res, 201, 'create quest') as { id: string };
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

/** A requirement definition created through the management API. */
export async function givenRequirement(t: TestApp, tenant: TenantCredentials, fields?: Fields) {
  return expectStatus(await adminApi(t, tenant).post('/v1/admin/store/requirements', requirementInput(fields)), 201, 'create requirement');
}

/** A listing created through the management API (a resource listing unless told). */
export async function givenListing(t: TestApp, tenant: TenantCredentials, fields: Fields) {
  return expectStatus(await adminApi(t, tenant).post('/v1/admin/store/listings', listingInput(fields)), 201, 'create listing');
}

/** A prize created through the management API. */
export async function givenPrize(t: TestApp, tenant: TenantCredentials, fields: Fields = {}) {
  return expectStatus(await adminApi(t, tenant).post('/v1/admin/prizes', prizeInput(fields)), 201, 'create prize');
}

/** An inventory slot and item of the community, through the management API. */
export async function givenItem(t: TestApp, tenant: TenantCredentials, communityId: string, fields: Fields = {}) {
  const admin = adminApi(t, tenant);
  const slot = expectStatus(await admin.post('/v1/admin/inventory/slots', slotInput(communityId)), 201, 'create slot');
  return expectStatus(await admin.post('/v1/admin/inventory/items', itemInput(communityId, slot.id, fields)), 201, 'create item');
}

/** A community row, written directly (for tests that need only its id and slug). */
export async function givenCommunityRow(
  t: TestApp,
  tenant: TenantCredentials,
  slug = uniqueName('c'),
): Promise<{ id: string; slug: string }> {
  const [row] = await t.dataSource.query<{ id: string }[]>(
    'INSERT INTO communities (tenant_id, slug, name) VALUES ($1, $2, $3) RETURNING id',
    [tenant.id, slug, `Community ${slug}`],
  );
  return { id: row.id, slug };
}

/** Makes `userId` a member of the community, written directly. */
export async function givenMembership(t: TestApp, tenant: TenantCredentials, communityId: string, userId: string): Promise<void> {
  await t.dataSource.query('INSERT INTO community_members (tenant_id, community_id, user_id, joined_at) VALUES ($1, $2, $3, now())', [
    tenant.id,
    communityId,
    userId,
  ]);
}
