import { NotificationStreamsService } from '../../src/notifications/stream/notification-streams.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { listening, SseClient } from '../helpers/sse.js';
import { useTestApp } from '../helpers/test-app.js';
import { until } from '../helpers/until.js';

/**
 * A full instance is shared between tenants (issue 46): the sign-ups of one tenant filled every
 * slot and every other tenant's streams answered 503. Four slots here.
 */
describe('notification streams: each tenant its share of a full instance', () => {
  const open: SseClient[] = [];
  // Declared before useTestApp's: the streams still open are closed before the app is.
  afterAll(() => {
    for (const c of open) c.close();
  });
  const t = useTestApp({ NOTIFICATION_STREAMS_MAX: '4', NOTIFICATION_STREAMS_PER_USER: '5', QUEST_EVENT_WORKER_ENABLED: 'false' });
  let base: string;
  let a: TenantCredentials;
  let b: TenantCredentials;

  beforeAll(async () => {
    base = await listening(t);
    [a, b] = [await t.givenTenant(), await t.givenTenant()];
  });

  const connect = async (u: TestUser) => {
    const c = await SseClient.connect(`${base}/v1/user/notifications/stream`, { Authorization: u.auth });
    open.push(c);
    await c.next((e) => e.event === 'ready');
    return c;
  };
  const refused = async (u: TestUser) => SseClient.open(`${base}/v1/user/notifications/stream`, { Authorization: u.auth });

  it('lets a tenant with fewer streams take the oldest of the tenant holding most, down to equal shares', async () => {
    const flood = await givenUser(t, a);
    const fromA = [];
    for (let i = 0; i < 4; i++) fromA.push(await connect(flood));
    // the instance is full and tenant A holds it all: more of A is refused
    expect(await refused(await givenUser(t, a))).toMatchObject({ status: 503, body: { error: 'stream_capacity_reached', code: 71003 } });

    const player = await givenUser(t, b);
    await connect(player);
    await fromA[0].end();
    expect(fromA.slice(1).every((c) => !c.ended)).toBe(true);
    await connect(player);
    await fromA[1].end();
    const streams = t.app.get(NotificationStreamsService);
    await until(
      async () => streams.open,
      (n) => n === 4,
    );

    // two each: neither tenant takes from the other any more
    expect(await refused(player)).toMatchObject({ status: 503, body: { error: 'stream_capacity_reached' } });
    expect(await refused(flood)).toMatchObject({ status: 503, body: { error: 'stream_capacity_reached' } });
    expect(fromA.slice(2).every((c) => !c.ended)).toBe(true);
  });
});
