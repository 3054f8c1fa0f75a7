import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { NatsSink } from '../../src/integrations/nats-sink.js';
import { givenCommunity } from '../helpers/communities.js';
import { givenUser } from '../helpers/factories.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** `npm run test:nats` (CI): the NATS JetStream sink against a nats-server of the test's own. */
describe('Integrations: the NATS JetStream sink', () => {
  let nats: NatsServer;
  let t: TestApp;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    t = await createTestApp({ NATS_URL: nats.url, NATS_STREAM: 'CGS_TEST' });
    nc = await connect({ servers: nats.url });
  });
  afterAll(async () => {
    await nc?.close();
    await t?.close();
    await nats?.close();
  });

  const pending = async (tenantId: string) =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM outbox_events WHERE tenant_id = $1 AND nats_pending', [tenantId]))[0].n);

  /** The envelopes of the stream's messages of one tenant, with their subjects and message ids. */
  async function streamed(tenantId: string) {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info('CGS_TEST');
    const out: { subject: string; msgId: string | undefined; json: { id: string; type: string; data: Record<string, unknown> } }[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage('CGS_TEST', { seq });
      if (!m || !m.subject.startsWith(`cgs.${tenantId}.`)) continue;
      out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), json: m.json() });
    }
    return out;
  }

  it('publishes every committed event to cgs.<tenant>.<type> with its id as Nats-Msg-Id', async () => {
    const tenant = await t.givenTenant();
    const c = await givenCommunity(t, tenant);
    const u = await givenUser(t, tenant);
    await t.http().post(`/v1/community/${c.id}/join?referrerHandle=`).set('Authorization', u.auth).expect(201);
    await t.app.get(NatsSink).drain();
    expect(await pending(tenant.id)).toBe(0);

    const got = await streamed(tenant.id);
    expect(got.map((m) => m.json.type).sort()).toEqual(['community.joined', 'user.logged_in', 'user.registered']);
    for (const m of got) {
      expect(m.subject).toBe(`cgs.${tenant.id}.${m.json.type}`);
      expect(m.msgId).toBe(m.json.id);
    }
    expect(got.find((m) => m.json.type === 'community.joined')!.json.data).toEqual({ communityId: c.id, userId: u.userId });

    // Published again (a crash before the flag was cleared): JetStream keeps one copy.
    const js = jetstream(nc);
    const joined = got.find((m) => m.json.type === 'community.joined')!;
    const ack = await js.publish(joined.subject, JSON.stringify(joined.json), { msgID: joined.json.id });
    expect(ack.duplicate).toBe(true);
  });

  it('keeps events pending while NATS is down and publishes them when it is back', async () => {
    const tenant = await t.givenTenant();
    await nats.kill();
    await givenUser(t, tenant);
    await t.app
      .get(NatsSink)
      .runOnce()
      .catch(() => undefined);
    expect(await pending(tenant.id)).toBe(2);
    await nats.start();
    for (let i = 0; i < 200 && (await pending(tenant.id)) > 0; i++) {
      await t.app
        .get(NatsSink)
        .runOnce()
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await pending(tenant.id)).toBe(0);
    expect((await streamed(tenant.id)).map((m) => m.json.type).sort()).toEqual(['user.logged_in', 'user.registered']);
  });

  it('closes the connection of a set-up that failed, and callers at the same time share one set-up', async () => {
    await t.app.get(NatsSink).drain(); // CGS_TEST exists and takes cgs.>
    // So another instance cannot create its stream over cgs.> (as without the permission to).
    const other = await createTestApp({ NATS_URL: nats.url, NATS_STREAM: 'CGS_OTHER' });
    try {
      const sink = other.app.get(NatsSink);
      const sinkConnections = async (state: 'open' | 'all') =>
        new Set((await nats.connections(state)).filter((c) => c.name === 'cgs').map((c) => c.cid));
      const before = await sinkConnections('open');
      for (let i = 0; i < 3; i++) await expect(sink.runOnce()).rejects.toThrow(/overlap/i);

      const opened = await sinkConnections('all');
      const together = await Promise.allSettled(Array.from({ length: 5 }, () => sink.runOnce()));
      expect(together.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
      // Each refused by a set-up (the stream would overlap CGS_TEST's subjects).
      for (const r of together) expect(String((r as PromiseRejectedResult).reason)).toMatch(/overlap/i);
      const openedNow = [...(await sinkConnections('all'))].filter((cid) => !opened.has(cid));
      // One for the five, and at most one more: the instance's own pass (every second). None when
      // the five joined a set-up of that pass already under way (its connection counted in `opened`).
      expect(openedNow.length).toBeLessThanOrEqual(2);

      // None of them stays open (the server notes a close within moments).
      let left: number[] = [];
      for (let i = 0; i < 40; i++) {
        left = [...(await sinkConnections('open'))].filter((cid) => !before.has(cid));
        if (left.length === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(left).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
