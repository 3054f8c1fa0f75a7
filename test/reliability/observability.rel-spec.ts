import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '../setup/test-database.js';
import { defaultTenantFromOutput, startApp, type AppInstance } from '../helpers/processes.js';
import { METRICS_TOKEN, Scrape } from '../helpers/metrics.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { asUser, expectOk, givenCommunity, register, report } from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const scrape = async (app: AppInstance) => {
  const r = await app.call('GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expectOk(r, 200, 'scrape');
  return new Scrape(r.body as string);
};

/**
 * WEB_CONCURRENCY=2: the primary hands each connection to one of the two workers, so a scrape reaches
 * one of them; its answer must be the figures of both (AggregatorRegistry in the primary).
 */
describe('metrics of a cluster (WEB_CONCURRENCY=2)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: AppInstance;
  let tenant: TenantCredentials;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startApp({ databaseUrl: db.url, name: 'cluster-metrics', env: { WEB_CONCURRENCY: '2', METRICS_TOKEN } });
    await until('both workers to listen', () => app.output().includes('2 workers are serving'));
    tenant = defaultTenantFromOutput(app.output());
  }, 120_000);
  afterAll(async () => {
    report('cluster metrics', figures);
    await app?.stop(); // SIGTERM: the primary stops its workers (SIGKILL would orphan them)
    await db?.drop();
  });

  it('answers every scrape, on whichever worker, with the sum of both workers', async () => {
    const user = await register(app, tenant);
    const community = await givenCommunity(app, tenant);
    const route = { method: 'GET', route: '/v1/community/:communityId', status_code: '200' };
    const before = await scrape(app);
    const requests = 40;
    // No keep-alive: each request is a new connection, which the primary hands to the workers in turn.
    for (let i = 0; i < requests; i++)
      expectOk(await app.call('GET', `/v1/community/${community.id}`, { headers: asUser(user) }), 200, 'community');

    const scrapes = [];
    for (let i = 0; i < 6; i++) scrapes.push(await scrape(app));
    for (const s of scrapes) {
      expect(s.count('http_request_duration_seconds', route) - before.count('http_request_duration_seconds', route)).toBe(requests);
      // Two pools of DB_POOL_SIZE (10): the gauges of both workers are summed.
      expect(s.value('db_pool_max_connections')).toBe(20);
      expect(s.value('cgs_logins_total', { method: 'register_password', result: 'success' })).toBe(1);
    }
    // Both workers served (each one's process figures are in the sum): two heaps, two start times' worth of CPU.
    expect(scrapes[0].value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    figures.requests = requests;
    figures.scrapes = scrapes.length;
  });

  it('keeps the token rule in every worker', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await app.call('GET', '/metrics', { headers: { Authorization: 'Bearer wrong' } });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: 10004, error: 'not_found' });
    }
  });
});

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; arrayValue?: { values?: { stringValue?: string }[] } };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface ReceivedSpan extends OtlpSpan {
  scope: string;
  service?: string;
}

/** A tiny OTLP/HTTP receiver (JSON encoding) on loopback: what a collector would get on /v1/traces. */
async function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close: () => Promise<void>; paths: string[] }> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.method === 'POST' && req.url === '/v1/traces' && String(req.headers['content-type']).includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: OtlpAttribute[] };
            scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
          }[];
        };
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ ...s, scope: ss.scope?.name ?? '', service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;

/** OTEL_EXPORTER_OTLP_ENDPOINT set: the real service (a cluster) sends HTTP, Express and pg spans of a request, with its request id. */
describe('tracing (OpenTelemetry, OTLP/HTTP, WEB_CONCURRENCY=2)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: AppInstance;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    db = await createTestDatabase();
    app = await startApp({
      databaseUrl: db.url,
      name: 'traced',
      env: {
        // Each worker of a cluster starts the SDK before it imports the application.
        WEB_CONCURRENCY: '2',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'cgs-under-test',
        // Send the batch at once rather than every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    await until('both workers to listen', () => app.output().includes('2 workers are serving'));
    tenant = defaultTenantFromOutput(app.output());
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
    await receiver?.close();
  });

  it('exports the server span with the request id, and the Express and pg spans of the same trace', async () => {
    const user = await register(app, tenant);
    const community = await givenCommunity(app, tenant);
    const requestId = `trace-${Date.now()}`;
    const r = await app.call('GET', `/v1/community/${community.id}`, { headers: { ...asUser(user), 'X-Request-Id': requestId } });
    expectOk(r, 200, 'community');
    expect(r.headers.get('x-request-id')).toBe(requestId);

    const isOurs = (s: ReceivedSpan) =>
      attribute(s, 'http.response.header.x-request-id')?.arrayValue?.values?.[0]?.stringValue === requestId;
    await until('the server span of the request', () => receiver.spans.some(isOurs), 20_000).catch((err: Error) => {
      throw new Error(`${err.message}; received: ${receiver.paths.slice(-5).join(', ')}; app output:\n${app.output().slice(-2000)}`);
    });
    const server = receiver.spans.find(isOurs)!;
    expect(server.kind).toBe(2); // SERVER
    expect(server.service).toBe('cgs-under-test');
    expect(server.scope).toBe('@opentelemetry/instrumentation-http');

    const trace = () => receiver.spans.filter((s) => s.traceId === server.traceId);
    await until('the pg spans of the request', () => trace().some((s) => s.scope === '@opentelemetry/instrumentation-pg'), 10_000);
    const scopes = new Set(trace().map((s) => s.scope));
    expect(scopes).toContain('@opentelemetry/instrumentation-express');
    expect(scopes).toContain('@opentelemetry/instrumentation-pg');
    const pgSpan = trace().find((s) => s.scope === '@opentelemetry/instrumentation-pg' && s.kind === 3)!; // CLIENT
    expect(pgSpan).toBeDefined();
    // Health probes and scrapes are not traced.
    await app.call('GET', '/health/ready');
    await sleep(500);
    expect(
      receiver.spans.some(
        (s) =>
          s.kind === 2 && String(attribute(s, 'http.target')?.stringValue ?? attribute(s, 'url.path')?.stringValue).startsWith('/health'),
      ),
    ).toBe(false);
  });
});
