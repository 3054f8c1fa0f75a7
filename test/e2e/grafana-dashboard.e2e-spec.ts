import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parser } from '@prometheus-io/lezer-promql';
import type * as AjvModule from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';
import { useTestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import { METRICS_TOKEN, Scrape } from '../helpers/metrics.js';

// ajv is CommonJS; require() sidesteps its default-export interop under ESM (as src/requirements does).
const { Ajv } = createRequire(import.meta.url)('ajv') as typeof AjvModule;

const DASHBOARD = 'docker/grafana/dashboards/community-gaming-service.json';
/** Grafana's dashboard model as its own package publishes it (generated there from Grafana's CUE schema). */
const GRAFANA_DASHBOARD_TYPES = 'node_modules/@grafana/schema/dist/types/raw/dashboard/x/types.gen.d.ts';
/** The panel plugins that ship with Grafana (a dashboard naming another needs a plugin installed). */
const CORE_PANELS = new Set([
  'row',
  'timeseries',
  'stat',
  'gauge',
  'bargauge',
  'table',
  'text',
  'heatmap',
  'histogram',
  'piechart',
  'barchart',
  'state-timeline',
  'status-history',
  'logs',
  'xychart',
  'trend',
]);

interface Target {
  refId: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query?: unknown }[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
const queries = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr ?? '' })));

/** The metric names a PromQL expression selects (parsed with Prometheus's own grammar), and whether it parsed cleanly. */
function selectedMetrics(expr: string): { names: string[]; errors: number } {
  // Grafana's interval variables stand where PromQL wants a duration; label variables are inside strings.
  const promql = expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');
  const names: string[] = [];
  let errors = 0;
  parser.parse(promql).iterate({
    enter(node) {
      if (node.type.isError) errors++;
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        if (name) names.push(promql.slice(name.from, name.to));
      }
    },
  });
  return { names, errors };
}

describe('the Grafana dashboard (docker/grafana)', () => {
  it("validates against Grafana's dashboard schema (@grafana/schema), no unknown field", () => {
    const schema = createGenerator({
      path: GRAFANA_DASHBOARD_TYPES,
      type: 'Dashboard',
      skipTypeCheck: true,
      additionalProperties: false,
    }).createSchema('Dashboard');
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const valid = validate(dashboard);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`) ?? []).toEqual([]);
    expect(valid).toBe(true);
  }, 60_000);

  it('has what Grafana needs to load and lay it out: uid, unique ids, core panel types, a 24-column grid without overlaps', () => {
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(dashboard.title).not.toBe('');
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of panels) {
      expect({ panel: p.title, type: CORE_PANELS.has(p.type) }).toEqual({ panel: p.title, type: true });
      const { x, y, w, h } = p.gridPos;
      expect({ panel: p.title, fits: [x, y, w, h].every(Number.isInteger) && x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 24 }).toEqual({
        panel: p.title,
        fits: true,
      });
      if (p.type === 'row') continue;
      expect({ panel: p.title, queries: (p.targets ?? []).length > 0 }).toEqual({ panel: p.title, queries: true });
      const refIds = (p.targets ?? []).map((t) => t.refId);
      expect(new Set(refIds).size).toBe(refIds.length);
    }
    const overlaps = panels.flatMap((a, i) =>
      panels
        .slice(i + 1)
        .filter(
          (b) =>
            a.gridPos.x < b.gridPos.x + b.gridPos.w &&
            b.gridPos.x < a.gridPos.x + a.gridPos.w &&
            a.gridPos.y < b.gridPos.y + b.gridPos.h &&
            b.gridPos.y < a.gridPos.y + a.gridPos.h,
        )
        .map((b) => `${a.title} / ${b.title}`),
    );
    expect(overlaps).toEqual([]);
  });

  it('queries the provisioned Prometheus through its variables, and defines every variable it uses', () => {
    const variables = new Set(dashboard.templating.list.map((v) => v.name));
    for (const p of panels.filter((x) => x.type !== 'row'))
      for (const ds of [p.datasource, ...(p.targets ?? []).map((t) => t.datasource)])
        expect(ds).toEqual({ type: 'prometheus', uid: '${datasource}' });
    for (const { expr } of queries)
      for (const [, name] of expr.matchAll(/\$(?:\{)?([a-zA-Z_]\w*)/g)) if (!name.startsWith('__')) expect(variables).toContain(name);

    const datasources = readFileSync('docker/grafana/provisioning/datasources/prometheus.yml', 'utf8');
    expect(datasources).toMatch(/type: prometheus/);
    expect(datasources).toMatch(/url: http:\/\/prometheus:9090/);
    expect(readFileSync('docker/grafana/provisioning/dashboards/dashboards.yml', 'utf8')).toMatch(/path: \/var\/lib\/grafana\/dashboards/);
    const compose = readFileSync('docker/compose.yml', 'utf8');
    expect(compose).toContain('./grafana/dashboards:/var/lib/grafana/dashboards');
    expect(compose).toContain('./grafana/provisioning:/etc/grafana/provisioning');
    const prometheus = readFileSync('docker/prometheus/prometheus.yml', 'utf8');
    expect(prometheus).toMatch(/metrics_path: \/metrics/);
    expect(prometheus).toMatch(/credentials_file: \/run\/secrets\/metrics_token/);
  });

  describe('against what the service exports', () => {
    const t = useTestApp({ METRICS_TOKEN });
    let exported: Set<string>;

    beforeAll(async () => {
      // Some traffic, so that the families with labels have series too (each family is declared anyway).
      const tenant = await t.givenTenant();
      await givenUser(t, tenant);
      const res = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      exported = new Scrape(res.text).seriesNames();
    });

    it('has queries that are valid PromQL and name only metrics the service exports', () => {
      expect(queries.length).toBeGreaterThan(10);
      const unknown: string[] = [];
      for (const { panel, expr } of queries) {
        const { names, errors } = selectedMetrics(expr);
        expect({ panel, expr, errors }).toEqual({ panel, expr, errors: 0 });
        expect({ panel, expr, selects: names.length > 0 }).toEqual({ panel, expr, selects: true });
        unknown.push(...names.filter((n) => !exported.has(n)).map((n) => `${panel}: ${n}`));
      }
      expect(unknown).toEqual([]);
    });

    it('shows every domain and HTTP family the service exports', () => {
      const used = new Set(queries.flatMap(({ expr }) => selectedMetrics(expr).names));
      const families = [
        'http_request_duration_seconds',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
        'db_pool_connections',
        'db_pool_waiting_requests',
        'cgs_logins_total',
        'cgs_purchases_total',
        'cgs_resources_credited_total',
        'cgs_mint_jobs_total',
      ];
      for (const f of families)
        expect({ family: f, shown: [...used].some((u) => u === f || u.startsWith(`${f}_`)) }).toEqual({ family: f, shown: true });
    });
  });
});
