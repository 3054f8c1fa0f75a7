import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const HAPROXY = '/usr/sbin/haproxy';
const check = (file: string) => spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });

/**
 * The load balancer's configurations, checked by HAProxy itself (`haproxy -c`, Debian's haproxy,
 * installed by scripts/topology.mjs when missing): the deployment's (deploy/haproxy/haproxy.cfg,
 * mounted by docker/compose.ha.yml) and the topology's copy of it for its loopback instances.
 */
describe('HAProxy configurations', () => {
  let dir: string;
  beforeAll(async () => {
    const processes = (await import(pathToFileURL(resolve('scripts/lib/local-processes.mjs')).href)) as {
      ensureDebian(programs: string[], packages: string[]): void;
    };
    processes.ensureDebian([HAPROXY], ['haproxy']);
    dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the deployment configuration is valid, without warnings; the same check refuses a broken copy', () => {
    const cfg = resolve('deploy/haproxy/haproxy.cfg');
    const run = check(cfg);
    expect({ status: run.status, out: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, out: 'Configuration file is valid' });
    const file = join(dir, 'broken.cfg');
    writeFileSync(file, readFileSync(cfg, 'utf8').replace('balance leastconn', 'balance fastest'));
    const broken = check(file);
    expect({ status: broken.status, out: broken.stderr }).toEqual({
      status: 1,
      out: expect.stringMatching(/broken.cfg:\d+] : balance only supports/),
    });
  });

  it("the topology's configuration is valid, without warnings, and answers 503 in the service's error shape", async () => {
    const { balancerConfig } = (await import(pathToFileURL(resolve('scripts/topology.mjs')).href)) as {
      balancerConfig: (o: { port: number; backends: number[] }) => string;
    };
    const file = join(dir, 'topology.cfg');
    const text = balancerConfig({ port: 18080, backends: [18081, 18082, 18083] });
    writeFileSync(file, text);
    const run = check(file);
    expect({ status: run.status, out: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, out: 'Configuration file is valid' });
    const body = /http-error status 503 content-type application\/json string '(.+)' hdr Retry-After 1$/m.exec(text)?.[1];
    expect(JSON.parse(body!)).toEqual({
      code: 10503,
      message: 'service_unavailable',
      error: 'no_instance_ready',
      detail: expect.any(String),
    });
  });
});
