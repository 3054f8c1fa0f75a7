import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

/**
 * The high-availability layout for a real deployment (issue 49): docker/compose.ha.yml and the
 * HAProxy configuration it mounts (deploy/haproxy/haproxy.cfg), checked by the tools that read
 * them, since no container engine runs here. HAProxy's own `haproxy -c` is in the topology tier
 * (test/topology/haproxy.topology-spec.ts: it needs Debian's haproxy, which `npm test` does not). Compose: there is no
 * `docker compose` plugin on this machine, so the file is validated against the compose
 * specification's JSON schema (the copy dclint ships, a maintained compose linter) and then for
 * what `docker compose config` checks beyond the schema (services, networks and volumes that
 * exist, no dependency cycle), and against this service's settings and routes. The Kubernetes
 * version (deploy/kubernetes/ha) is test/architecture/kubernetes.spec.ts's.
 */
const ROOT = process.cwd();
const COMPOSE = join(ROOT, 'docker/compose.ha.yml');
const HAPROXY_CFG = join(ROOT, 'deploy/haproxy/haproxy.cfg');

interface Service {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  networks?: string[] | Record<string, unknown>;
  depends_on?: string[] | Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  healthcheck?: unknown;
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
  networks?: Record<string, unknown>;
  volumes?: Record<string, unknown>;
}
// As compose reads it: YAML merge keys (`<<: *anchor`) applied.
const source = readFileSync(COMPOSE, 'utf8');
const compose = parse(source, { merge: true }) as ComposeFile;
const services = compose.services;
const app = services.app;
const env = app.environment ?? {};
/** ${VAR:?message} as compose interpolates it, with a placeholder value. */
const interpolated = (value: string | number) => String(value).replace(/\$\{([A-Z_]+)(:\?[^}]*)?\}/g, (_, name: string) => `<${name}>`);

const composeSchema = () => {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json');
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  // Draft-07 (ajv's default meta-schema), named by an address ajv does not know it by.
  const { $schema, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string };
  expect($schema).toMatch(/draft-07/);
  return ajv.compile(schema);
};

describe('the high-availability compose file (docker/compose.ha.yml)', () => {
  it('passes the compose specification schema, which refuses what compose would', () => {
    const check = composeSchema();
    expect(check(compose) ? [] : check.errors).toEqual([]);
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    broken.services.app.depends_on = { 'pg-node-1': { condition: 'service_ready' } };
    broken.services.haproxy.restrat = 'always';
    expect(check(broken)).toBe(false);
    expect(JSON.stringify(check.errors)).toMatch(/service_ready|restrat/);
  });

  it('names only services, networks and volumes it defines, with no dependency cycle', () => {
    const networks = new Set(Object.keys(compose.networks ?? {}));
    const volumes = new Set(Object.keys(compose.volumes ?? {}));
    const deps = (s: Service) => (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {}));
    for (const [name, s] of Object.entries(services)) {
      expect({ name, image: Boolean(s.image ?? s.build) }).toEqual({ name, image: true });
      for (const d of deps(s)) expect(Object.keys(services)).toContain(d);
      for (const n of Array.isArray(s.networks) ? s.networks : Object.keys(s.networks ?? {})) expect(networks).toContain(n);
      for (const v of s.volumes ?? []) {
        const from = v.split(':')[0];
        if (from.startsWith('.')) expect({ v, exists: existsSync(resolve(ROOT, 'docker', from)) }).toEqual({ v, exists: true });
        else expect(volumes).toContain(from);
      }
    }
    const visit = (name: string, path: string[]): void => {
      expect(path).not.toContain(name);
      for (const d of deps(services[name])) visit(d, [...path, name]);
    };
    for (const name of Object.keys(services)) visit(name, []);
    // One-shot jobs that the app waits for are waited for as completed.
    const conditions = app.depends_on as Record<string, { condition: string }>;
    expect(conditions['redis-cluster-init'].condition).toBe('service_completed_successfully');
    expect(conditions['nats-stream-init'].condition).toBe('service_completed_successfully');
  });

  it('runs pg_auto_failover (a monitor and two nodes), a read replica, six Redis nodes, three NATS servers, three instances', () => {
    const named = (re: RegExp) => Object.keys(services).filter((n) => re.test(n));
    expect(named(/^pg-/)).toEqual(['pg-monitor', 'pg-node-1', 'pg-node-2', 'pg-replica-1']);
    expect(services['pg-monitor'].entrypoint).toEqual(['bash', '/scripts/monitor.sh']);
    for (const n of ['pg-node-1', 'pg-node-2']) expect(services[n].entrypoint).toEqual(['bash', '/scripts/node.sh']);
    expect(services['pg-replica-1'].entrypoint).toEqual(['bash', '/scripts/replica.sh']);
    for (const n of named(/^pg-/)) expect(services[n].volumes).toContain('../deploy/kubernetes/ha/postgres:/scripts:ro');
    // The scripts (shared with Kubernetes' ConfigMap) parse.
    for (const script of ['monitor.sh', 'node.sh', 'replica.sh'])
      expect(execFileSync('bash', ['-n', join(ROOT, 'deploy/kubernetes/ha/postgres', script)], { encoding: 'utf8' })).toBe('');
    expect(named(/^redis-\d$/)).toHaveLength(6);
    expect(services['redis-cluster-init'].command!.join(' ')).toMatch(
      /redis-cli --cluster create[\s\S]*for n in 1 2 3 4 5 6[\s\S]*--cluster-replicas 1/,
    );
    expect(named(/^nats-\d$/)).toHaveLength(3);
    for (const n of named(/^nats-\d$/)) expect(services[n].command).toContain('--jetstream');
    expect(app.deploy?.replicas).toBe(3);
  });

  it("wires the instances to every server by the service's own settings", () => {
    const settings = new Set(
      [...readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??[:=! ]/gm)].map((m) => m[1]),
    );
    expect(settings.size).toBeGreaterThan(40);
    expect(Object.keys(env).filter((n) => !settings.has(n))).toEqual([]);
    expect(interpolated(env.DATABASE_URL)).toBe(
      'postgres://cgs:<POSTGRES_PASSWORD>@pg-node-1:5432,pg-node-2:5432/cgs?target_session_attrs=read-write',
    );
    expect(interpolated(env.DATABASE_REPLICA_URLS)).toBe('postgres://cgs:<POSTGRES_PASSWORD>@pg-replica-1:5432/cgs');
    expect(Number(env.REPLICA_MAX_LAG_MS)).toBeGreaterThanOrEqual(50);
    expect(String(env.REDIS_CLUSTER_NODES).split(',')).toEqual([1, 2, 3, 4, 5, 6].map((i) => `redis-${i}:6379`));
    expect(env).not.toHaveProperty('REDIS_URL'); // refused together with REDIS_CLUSTER_NODES
    expect(String(env.NATS_URL).split(',')).toEqual([1, 2, 3].map((i) => `nats://nats-${i}:4222`));
    expect(String(env.NATS_STREAM)).toBe('CGS_EVENTS');
    expect(services['nats-stream-init'].command!.join(' ')).toContain(`stream add ${env.NATS_STREAM} --subjects 'cgs.>'`);
    for (const required of ['SESSION_SECRET', 'ENCRYPTION_KEY', 'METRICS_TOKEN'])
      expect(String(env[required])).toMatch(new RegExp(`^\\$\\{${required}:\\?`));
    // SIGKILL comes after stop_grace_period: the delay and the drain fit inside it.
    expect(Number.parseInt(app.stop_grace_period!, 10) * 1000).toBeGreaterThan(
      Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_GRACE_MS),
    );
    // HAProxy's addresses count for X-Forwarded-For: TRUST_PROXY is the network they share.
    const edge = (compose.networks!.edge as { ipam: { config: { subnet: string }[] } }).ipam.config[0].subnet;
    expect(env.TRUST_PROXY).toBe(edge);
    expect(services.haproxy.networks).toEqual(['edge']);
    expect(app.networks).toContain('edge');
  });
});

describe('the HAProxy configuration (deploy/haproxy/haproxy.cfg)', () => {
  const cfg = readFileSync(HAPROXY_CFG, 'utf8');
  const openapi = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { paths: Record<string, unknown> };

  it("checks the service's readiness route, retries safely on another instance, passes its 503s through", () => {
    const checks = [...cfg.matchAll(/http-check send meth GET uri (\S+)/g)].map((m) => m[1]);
    expect(checks).toEqual(['/health/ready', '/health/ready']);
    expect(Object.keys(openapi.paths)).toContain('/health/ready');
    expect(cfg).toMatch(/^\s+option redispatch 1$/m);
    const retryOn = /^\s+retry-on (.+)$/m.exec(cfg)![1].split(' ');
    expect(retryOn).toContain('conn-failure');
    // A 503 (with its Retry-After) is the client's answer, never retried here.
    expect(retryOn.filter((r) => /^5\d\d$|all-retryable-errors/.test(r))).toEqual([]);
    expect(cfg.match(/http-request disable-l7-retry unless METH_GET \|\| METH_HEAD \|\| METH_OPTIONS/g)).toHaveLength(2);
  });

  it('gives the notification stream (SSE) its own backend with long timeouts, on the three instances compose runs', () => {
    const path = /acl notification_stream path (\S+)/.exec(cfg)![1];
    expect(Object.keys(openapi.paths)).toContain(path);
    expect(path).toBe('/v1/user/notifications/stream');
    const stream = cfg.slice(cfg.indexOf('backend cgs_stream'));
    expect(stream).toMatch(/timeout server 1h/);
    expect(cfg).toMatch(/^\s+timeout client 1h$/m);
    // Inactivity bounds of the stream's timeouts are above the service's heartbeat (15 s).
    for (const m of cfg.matchAll(/server-template (\S+) (\d+) ([^:\s]+):(\d+)/g)) {
      expect(Number(m[2])).toBe(app.deploy?.replicas);
      expect(m[3]).toBe('app');
      expect(Number(m[4])).toBe(Number(env.PORT));
    }
    // compose mounts this file where the official image reads it.
    expect(services.haproxy.volumes).toContain('../deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });
});
