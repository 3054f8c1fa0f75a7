import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import ts from 'typescript';
import { parseAllDocuments, parse } from 'yaml';

/**
 * The Kubernetes files (deploy/kubernetes) against Kubernetes' own schemas (kubernetes-models,
 * which validates with the API's OpenAPI definitions) and against this service: its settings, its
 * routes, its image and its shutdown. `kubectl` cannot run here (no cluster, no registry for it);
 * these are the mistakes it would catch on apply and the ones it would not. Both layouts: the
 * default one (deploy/kubernetes, over deploy/kubernetes/base) and the high-availability overlay
 * (deploy/kubernetes/ha, over the same base), each as kustomize builds it (see `render`).
 */
const ROOT = process.cwd();
const DIR = join(ROOT, 'deploy/kubernetes');
const HA = join(DIR, 'ha');
type Obj = { apiVersion: string; kind: string; metadata: { name: string }; [k: string]: unknown };
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  startupProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: {
    containers: Container[];
    terminationGracePeriodSeconds?: number;
    securityContext?: { runAsUser?: number };
    volumes?: { secret?: { secretName: string; items?: { key: string }[] }; configMap?: { name: string } }[];
    topologySpreadConstraints?: { topologyKey: string; labelSelector: { matchLabels: Record<string, string> } }[];
  };
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};
const validate = (o: Obj) => {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model) throw new Error(`${o.apiVersion} ${o.kind} ${o.metadata?.name}: no schema here; add its kubernetes-models class`);
  new Model(o as never).validate();
};

interface Kustomization {
  resources: string[];
  patches?: { path: string }[];
  images?: { name: string }[];
  configMapGenerator?: { name: string; files: string[] }[];
  secretGenerator?: { name: string; envs: string[] }[];
}
const kustomizationOf = (dir: string) => parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
const documents = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return d.toJS() as Obj;
  });

/**
 * A strategic-merge patch as kustomize applies the ones here: maps merged, lists of named items
 * (containers, env) merged by name (`$patch: delete` removes one), other lists replaced.
 */
const merge = (target: unknown, patch: unknown): unknown => {
  if (Array.isArray(patch)) {
    const named = (l: unknown[]) => l.every((i) => typeof i === 'object' && i !== null && 'name' in i);
    if (!Array.isArray(target) || !named(target) || !named(patch)) return patch;
    const out = [...(target as { name: string }[])];
    for (const item of patch as { name: string; $patch?: string }[]) {
      const at = out.findIndex((i) => i.name === item.name);
      if (item.$patch === 'delete') {
        if (at < 0) throw new Error(`$patch: delete of ${item.name}, which is not there`);
        out.splice(at, 1);
      } else if (at >= 0) out[at] = merge(out[at], item) as { name: string };
      else out.unshift(item);
    }
    return out;
  }
  if (typeof patch !== 'object' || patch === null) return patch;
  const out: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) out[k] = merge(out[k], v);
  return out;
};

/** The objects `kubectl apply -k dir` applies (but the generated Secret, checked on its own). */
const render = (dir: string): Obj[] => {
  const k = kustomizationOf(dir);
  const objects = k.resources.flatMap((r) => (statSync(join(dir, r)).isDirectory() ? render(join(dir, r)) : documents(join(dir, r))));
  for (const { path } of k.patches ?? []) {
    for (const patch of documents(join(dir, path))) {
      const at = objects.findIndex((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
      if (at < 0) throw new Error(`${path}: no ${patch.kind} ${patch.metadata.name} to patch`);
      objects[at] = merge(objects[at], patch) as Obj;
    }
  }
  for (const g of k.configMapGenerator ?? [])
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: g.name },
      data: Object.fromEntries(g.files.map((f) => [basename(f), readFileSync(join(dir, f), 'utf8')])),
    });
  return objects;
};
const templatesOf = (list: Obj[]) =>
  list
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((o) => ({ name: o.metadata.name, template: (o.spec as { template: PodTemplate }).template }));
const settings = new Set(
  [...readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??[:=! ]/gm)].map((m) => m[1]),
);
const exampleKeys = (dir: string) =>
  new Set([...readFileSync(join(dir, 'secrets.env.example'), 'utf8').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
/** Every Secret a pod reads: env and volumes. */
const secretRefs = (list: ReturnType<typeof templatesOf>) =>
  list.flatMap((t) => [
    ...t.template.spec.containers.flatMap((c) =>
      (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
    ),
    ...(t.template.spec.volumes ?? []).flatMap((v) =>
      v.secret ? (v.secret.items ?? []).map((i) => ({ name: v.secret!.secretName, key: i.key })) : [],
    ),
  ]);
/** Every Service routes to exactly one workload's pods, on ports those pods name. */
const expectServicesRoute = (list: Obj[]) => {
  const pods = templatesOf(list);
  for (const svc of list.filter((o) => o.kind === 'Service')) {
    const spec = svc.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
    const selected = pods.filter((t) => Object.entries(spec.selector).every(([k, v]) => t.template.metadata.labels[k] === v));
    expect({ service: svc.metadata.name, pods: selected.length }).toEqual({ service: svc.metadata.name, pods: 1 });
    const named = new Set(selected[0].template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name)));
    for (const port of spec.ports) expect(named).toContain(port.targetPort);
  }
};

const kustomization = kustomizationOf(DIR) as Required<Pick<Kustomization, 'images' | 'secretGenerator'>> & Kustomization;
const objects: Obj[] = render(DIR);
const templates = templatesOf(objects);
const app = templates.find((t) => t.name === 'cgs')!.template;
const cgs = app.spec.containers.find((c) => c.name === 'cgs')!;

// The schemas' validators let unknown fields through (the API server drops them; `kubectl apply`
// refuses them under its default strict validation): the models' types name every field, so
// the objects are type-checked as those types, where a misspelt field is an excess property.
const typeErrors = (list: Obj[]): string[] => {
  const file = join(DIR, '__types-check__.ts');
  const type = (o: Obj) => {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    return { from: `kubernetes-models/${group ? `${group}/` : ''}${version}/${o.kind}`, name: `I${o.kind}` };
  };
  const source = list
    .map((o, i) => `import type { ${type(o).name} as T${i} } from '${type(o).from}';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`)
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : read(name, language, ...rest);
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
};

describe('the Kubernetes files', () => {
  it('list only files that exist, and every object passes its Kubernetes schema', () => {
    for (const file of kustomization.resources) expect(existsSync(join(DIR, file))).toBe(true);
    expect(objects.map((o) => o.kind).sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'Deployment',
        'Deployment',
        'Namespace',
        'PodDisruptionBudget',
        'Role',
        'RoleBinding',
        'Service',
        'Service',
        'Service',
        'Service',
        'ServiceAccount',
        'StatefulSet',
      ].sort(),
    );
    for (const o of objects) validate(o);
  });

  it('name only fields their kinds have', () => {
    expect(typeErrors(objects)).toEqual([]);
    const misspelt = structuredClone(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cgs')!);
    (misspelt.spec as { template: { spec: Record<string, unknown> } }).template.spec.terminationGracePeriodSecond = 40;
    expect(typeErrors([misspelt]).join('\n')).toMatch(/terminationGracePeriodSecond/);
  }, 60_000);

  it('are checked by a validator that refuses what Kubernetes would', () => {
    const broken = structuredClone(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cgs')!);
    (broken.spec as { replicas: unknown }).replicas = 'two';
    expect(() => validate(broken)).toThrow(/replicas/);
    const noSelector = structuredClone(broken);
    delete (noSelector.spec as { selector?: unknown }).selector;
    expect(() => validate(noSelector)).toThrow(/selector/);
  });

  it("set only the service's own settings, its secrets from the generated secret's keys", () => {
    expect(settings.size).toBeGreaterThan(40);
    expect((cgs.env ?? []).map((e) => e.name).filter((n) => !settings.has(n))).toEqual([]);
    const keys = exampleKeys(DIR);
    const secret = kustomization.secretGenerator[0];
    expect(secret.envs).toEqual(['secrets.env']);
    const refs = secretRefs(templates);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      expect(ref.name).toBe(secret.name);
      expect(keys).toContain(ref.key);
    }
    // What production requires (src/config/app-config.ts) is set.
    for (const required of ['DATABASE_URL', 'SESSION_SECRET', 'ENCRYPTION_KEY']) expect(cgs.env?.map((e) => e.name)).toContain(required);
  });

  it("probe the service's health routes on its port, and give the drain its time", () => {
    const openapi = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { paths: Record<string, unknown> };
    const env = Object.fromEntries((cgs.env ?? []).map((e) => [e.name, e.value]));
    const http = cgs.ports?.find((p) => p.name === 'http');
    expect(http?.containerPort).toBe(Number(env.PORT));
    for (const probe of [cgs.startupProbe, cgs.livenessProbe, cgs.readinessProbe]) {
      expect(probe?.httpGet?.port).toBe('http');
      expect(Object.keys(openapi.paths)).toContain(probe?.httpGet?.path);
    }
    expect(cgs.readinessProbe?.httpGet?.path).toBe('/health/ready');
    // SIGKILL comes after terminationGracePeriodSeconds: the delay and the drain fit inside it.
    expect(app.spec.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_GRACE_MS));
  });

  it('run the image docker/Dockerfile builds, as its user', () => {
    expect(kustomization.images.map((i) => i.name)).toEqual([cgs.image]);
    const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^FROM node:24-slim$/m);
    expect(app.spec.securityContext?.runAsUser).toBe(1000); // `node` in the official Node.js images
  });

  it('route every Service to pods that exist, on ports those pods name', () => expectServicesRoute(objects));
});

describe('the high-availability overlay (deploy/kubernetes/ha)', () => {
  const ha = kustomizationOf(HA);
  const haObjects = render(HA);
  const haTemplates = templatesOf(haObjects);
  const haApp = haTemplates.find((t) => t.name === 'cgs')!.template;
  const env = Object.fromEntries((haApp.spec.containers.find((c) => c.name === 'cgs')!.env ?? []).map((e) => [e.name, e]));
  const byName = (kind: string, name: string) => haObjects.find((o) => o.kind === kind && o.metadata.name === name)!;
  const replicas = (name: string) => (byName('StatefulSet', name).spec as { replicas: number }).replicas;
  /** The pods of a StatefulSet by the names its headless Service gives them: name-0.service, ... */
  const podHosts = (name: string) => {
    const spec = byName('StatefulSet', name).spec as { replicas: number; serviceName: string };
    expect((byName('Service', spec.serviceName).spec as { clusterIP?: string }).clusterIP).toBe('None');
    return Array.from({ length: spec.replicas }, (_, i) => `${name}-${i}.${spec.serviceName}`);
  };

  it('builds on the base alone, and every object passes its Kubernetes schema and names only fields its kind has', () => {
    expect(ha.resources.filter((r) => statSync(join(HA, r)).isDirectory())).toEqual(['../base']);
    expect(ha.images).toEqual(kustomization.images);
    expect(haObjects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
      [
        ...['Namespace/community-gaming', 'ServiceAccount/prometheus', 'Role/prometheus', 'RoleBinding/prometheus', 'ConfigMap/prometheus'],
        ...['Deployment/cgs', 'Service/cgs', 'PodDisruptionBudget/cgs', 'Deployment/prometheus', 'Service/prometheus'],
        ...['StatefulSet/pg-monitor', 'Service/pg-monitor', 'StatefulSet/pg-node', 'Service/pg-node', 'PodDisruptionBudget/pg-node'],
        ...['StatefulSet/pg-replica', 'Service/pg-replica', 'ConfigMap/pg-scripts'],
        ...['StatefulSet/redis-cluster', 'Service/redis-cluster', 'PodDisruptionBudget/redis-cluster', 'Job/redis-cluster-init'],
        ...['StatefulSet/nats', 'Service/nats', 'PodDisruptionBudget/nats', 'Job/nats-stream-init'],
      ].sort(),
    );
    for (const o of haObjects) validate(o);
    expect(typeErrors(haObjects)).toEqual([]);
  }, 60_000);

  it('runs the service at three replicas, one per node, two of them through a drain', () => {
    expect((byName('Deployment', 'cgs').spec as { replicas: number }).replicas).toBe(3);
    const labels = haApp.metadata.labels;
    const spread = haApp.spec.topologySpreadConstraints ?? [];
    expect(spread.map((c) => c.topologyKey)).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    for (const c of spread) expect(c.labelSelector.matchLabels).toEqual(labels);
    const pdb = byName('PodDisruptionBudget', 'cgs').spec as { minAvailable: number; selector: { matchLabels: Record<string, string> } };
    expect(pdb).toEqual({ minAvailable: 2, selector: { matchLabels: labels } });
    // Every other disruption budget selects the pods of one StatefulSet.
    for (const o of haObjects.filter((p) => p.kind === 'PodDisruptionBudget' && p.metadata.name !== 'cgs')) {
      const sel = (o.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
      expect(
        haTemplates.filter((t) => Object.entries(sel).every(([k, v]) => t.template.metadata.labels[k] === v)).map((t) => t.name),
      ).toEqual([o.metadata.name]);
    }
  });

  it("wires the service to every server by the service's own settings", () => {
    expect(Object.keys(env).filter((n) => !settings.has(n))).toEqual([]);
    for (const name of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'REPLICA_MAX_LAG_MS', 'REDIS_CLUSTER_NODES', 'NATS_URL'])
      expect(env).toHaveProperty(name);
    // The service refuses REDIS_URL and REDIS_CLUSTER_NODES together.
    expect(env).not.toHaveProperty('REDIS_URL');
    expect(replicas('redis-cluster')).toBe(6);
    expect(env.REDIS_CLUSTER_NODES.value!.split(',')).toEqual(podHosts('redis-cluster').map((h) => `${h}:6379`));
    expect(replicas('nats')).toBe(3);
    expect(env.NATS_URL.value!.split(',')).toEqual(podHosts('nats').map((h) => `nats://${h}:4222`));
    const nats = byName('StatefulSet', 'nats').spec as { template: PodTemplate };
    const args = (nats.template.spec.containers[0] as Container & { args: string[] }).args;
    expect(args).toContain('--jetstream');
    expect(args[args.indexOf('--routes') + 1].split(',')).toEqual(podHosts('nats').map((h) => `nats://${h}:6222`));
    // PostgreSQL: both pg_auto_failover nodes in one multi-host URL, the replica in DATABASE_REPLICA_URLS.
    const example = Object.fromEntries(
      [...readFileSync(join(HA, 'secrets.env.example'), 'utf8').matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]),
    );
    expect(replicas('pg-node')).toBe(2);
    expect(example.DATABASE_URL).toBe(
      `postgres://cgs:<POSTGRES_PASSWORD>@${podHosts('pg-node')
        .map((h) => `${h}:5432`)
        .join(',')}/cgs?target_session_attrs=read-write`,
    );
    expect(example.DATABASE_REPLICA_URLS.split(',')).toEqual(
      podHosts('pg-replica').map((h) => `postgres://cgs:<POSTGRES_PASSWORD>@${h}:5432/cgs`),
    );
    const replicaEnv = (byName('StatefulSet', 'pg-replica').spec as { template: PodTemplate }).template.spec.containers[0].env ?? [];
    expect(replicaEnv.find((e) => e.name === 'PGAF_NODES')?.value?.split(',')).toEqual(podHosts('pg-node').map((h) => `${h}:5432`));
  });

  it('reads its secrets from the keys of its own secrets.env', () => {
    const keys = exampleKeys(HA);
    expect(ha.secretGenerator).toEqual([{ name: 'cgs-secrets', envs: ['secrets.env'] }]);
    const refs = secretRefs(haTemplates);
    expect(refs.length).toBeGreaterThan(12);
    for (const ref of refs) {
      expect(ref.name).toBe('cgs-secrets');
      expect(keys).toContain(ref.key);
    }
    for (const required of ['DATABASE_URL', 'SESSION_SECRET', 'ENCRYPTION_KEY']) expect(Object.keys(env)).toContain(required);
  });

  it('runs the PostgreSQL scripts it ships, which bash parses', () => {
    const scripts = byName('ConfigMap', 'pg-scripts').data as Record<string, string>;
    for (const name of ['pg-monitor', 'pg-node', 'pg-replica']) {
      const t = (byName('StatefulSet', name).spec as { template: PodTemplate }).template;
      expect(t.spec.volumes?.some((v) => v.configMap?.name === 'pg-scripts')).toBe(true);
      const [shell, script] = t.spec.containers[0].command!;
      expect(shell).toBe('bash');
      expect(Object.keys(scripts)).toContain(basename(script));
    }
    for (const [name, text] of Object.entries(scripts)) {
      expect({ name, syntax: execFileSync('bash', ['-n'], { input: text, encoding: 'utf8' }) }).toEqual({ name, syntax: '' });
    }
  });

  it('routes every Service to pods that exist, on ports those pods name', () => expectServicesRoute(haObjects));
});
