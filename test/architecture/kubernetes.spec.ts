import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import ts from 'typescript';
import { parseAllDocuments, parse } from 'yaml';

/**
 * The Kubernetes files (deploy/kubernetes) against Kubernetes' own schemas (kubernetes-models,
 * which validates with the API's OpenAPI definitions) and against this service: its settings, its
 * routes, its image and its shutdown. `kubectl` cannot run here (no cluster, no registry for it);
 * these are the mistakes it would catch on apply and the ones it would not.
 */
const ROOT = process.cwd();
const DIR = join(ROOT, 'deploy/kubernetes');
type Obj = { apiVersion: string; kind: string; metadata: { name: string }; [k: string]: unknown };
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
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
    volumes?: { secret?: { secretName: string; items?: { key: string }[] } }[];
  };
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};
const validate = (o: Obj) => {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model) throw new Error(`${o.apiVersion} ${o.kind} ${o.metadata?.name}: no schema here; add its kubernetes-models class`);
  new Model(o as never).validate();
};

const kustomization = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8')) as {
  resources: string[];
  images: { name: string }[];
  secretGenerator: { name: string; envs: string[] }[];
};
const objects: Obj[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return d.toJS() as Obj;
  }),
);
const templates = objects
  .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
  .map((o) => ({ name: o.metadata.name, template: (o.spec as { template: PodTemplate }).template }));
const app = templates.find((t) => t.name === 'cgs')!.template;
const cgs = app.spec.containers.find((c) => c.name === 'cgs')!;

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
    const settings = new Set(
      [...readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??[:=! ]/gm)].map((m) => m[1]),
    );
    expect(settings.size).toBeGreaterThan(40);
    expect((cgs.env ?? []).map((e) => e.name).filter((n) => !settings.has(n))).toEqual([]);
    const example = readFileSync(join(DIR, 'secrets.env.example'), 'utf8');
    const keys = new Set([...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
    const secret = kustomization.secretGenerator[0];
    expect(secret.envs).toEqual(['secrets.env']);
    const refs = templates.flatMap((t) => [
      ...t.template.spec.containers.flatMap((c) =>
        (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
      ),
      ...(t.template.spec.volumes ?? []).flatMap((v) =>
        v.secret ? (v.secret.items ?? []).map((i) => ({ name: v.secret!.secretName, key: i.key })) : [],
      ),
    ]);
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

  it('route every Service to pods that exist, on ports those pods name', () => {
    for (const svc of objects.filter((o) => o.kind === 'Service')) {
      const spec = svc.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const pods = templates.filter((t) => Object.entries(spec.selector).every(([k, v]) => t.template.metadata.labels[k] === v));
      expect({ service: svc.metadata.name, pods: pods.length }).toEqual({ service: svc.metadata.name, pods: 1 });
      const named = new Set(pods[0].template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name)));
      for (const port of spec.ports) expect(named).toContain(port.targetPort);
    }
  });
});
