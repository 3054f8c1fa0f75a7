import { ReplicaReads } from '../../src/database/replica-reads.js';
import { givenCommunity } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { freePort } from '../helpers/processes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';
import { adminUrl } from '../setup/test-database.js';

/**
 * DATABASE_REPLICA_URLS naming servers that must never be read: the tests' own server (not a
 * standby: its data is not a replica's) and a port nothing listens on. Reads that would go to a
 * replica answer from the primary, unchanged. Real replicas, their lag and a replica stopped under
 * load: test/topology/failover.topology-spec.ts.
 */
describe('read replicas that cannot serve (e2e)', () => {
  let t: TestApp;
  let replicas: ReplicaReads;

  beforeAll(async () => {
    const dead = await freePort();
    // The tests' server: a primary (its `postgres` database: any database of a non-standby will do).
    const primary = adminUrl();
    const unreachable = primary.replace(/@[^/]+\//, `@127.0.0.1:${dead}/`);
    t = await createTestApp({ DATABASE_REPLICA_URLS: `${primary},${unreachable}`, REPLICA_PROBE_MS: '20' });
    replicas = t.app.get(ReplicaReads);
  });
  afterAll(() => t?.close());

  it('reads the primary when one replica is not a standby and the other does not answer', async () => {
    expect(replicas.enabled).toBe(true);
    const tenant = await t.givenTenant();
    const community = await givenCommunity(t, tenant);
    const user = await givenUser(t, tenant);
    // Both probed: the primary answered as a non-standby, the other not at all.
    await until(
      async () => replicas.states(),
      (s) => s.length === 2 && s.every((r) => !r.healthy),
      { timeoutMs: 10_000 },
    );
    const before = replicas.readsOnPrimary;
    const profile = await t.http().get(`/v1/user/by-id/${user.username}/public?containerId=${community.id}`).set('X-Tenant-Id', tenant.id);
    expect(profile.status).toBe(200);
    expect(profile.body.userId).toBe(user.userId);
    const quests = await t
      .http()
      .get(`/v1/community/${community.id}/quests?tags=&questTypes=&featured=&query=&page=1&limit=10`)
      .set('Authorization', user.auth);
    expect(quests.status).toBe(200);
    const listings = await t
      .http()
      .get(`/v1/store/listings?containerId=${community.id}&enrichRequirements=false&page=1&limit=10`)
      .set('Authorization', user.auth);
    expect(listings.status).toBe(200);
    // The public profile's user and socials, the quest page, the listings page: on the primary.
    expect(replicas.readsOnPrimary - before).toBeGreaterThanOrEqual(4);
    expect(replicas.states().map((r) => [r.reads, r.fallbacks])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});
