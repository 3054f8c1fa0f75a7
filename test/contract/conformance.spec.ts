import { INTERFACE_ENDPOINTS, SESSION_RESULT_FIELDS, type Field, type FieldType, type InterfaceEndpoint } from './interface-endpoints.js';
import { openapi as doc, type Schema } from './openapi-document.js';

function resolve(s: Schema | undefined): Schema | undefined {
  if (!s) return s;
  if (s.$ref) return resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]);
  if (s.allOf?.length === 1) return resolve(s.allOf[0]);
  return s;
}

function typeMatches(s: Schema | undefined, want: FieldType): boolean {
  const r = resolve(s);
  if (!r) return false;
  switch (want) {
    case 'number':
      return r.type === 'number' || r.type === 'integer';
    case 'string[]':
      return r.type === 'array' && resolve(r.items)?.type === 'string';
    case 'object[]':
      return r.type === 'array' && resolve(r.items)?.type === 'object';
    case 'object':
      return r.type === 'object';
    default:
      return r.type === want;
  }
}

/** Problems of one endpoint, empty when it conforms. */
function check(e: InterfaceEndpoint): string[] {
  const problems: string[] = [];
  const op = doc.paths[e.path]?.[e.method];
  if (!op) return [`missing ${e.method.toUpperCase()} ${e.path}`];
  const params = op.parameters ?? [];

  for (const name of [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
    const p = params.find((x) => x.in === 'path' && x.name === name);
    if (!p) problems.push(`path parameter ${name} not documented`);
    else if (!typeMatches(p.schema, 'string')) problems.push(`path parameter ${name} is not a string`);
  }

  const query = params.filter((p) => p.in === 'query');
  for (const f of e.query ?? []) {
    const p = query.find((x) => x.name === f.name);
    if (!p) problems.push(`query ${f.name} missing`);
    else {
      if (!typeMatches(p.schema, f.type)) problems.push(`query ${f.name} is not ${f.type}: ${JSON.stringify(p.schema)}`);
      if (Boolean(p.required) !== f.required)
        problems.push(`query ${f.name} required=${Boolean(p.required)}, interface says ${f.required}`);
    }
  }
  for (const p of query) {
    if (p.required && !(e.query ?? []).some((f) => f.name === p.name)) problems.push(`extra required query ${p.name}`);
  }

  const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
  const fields: Field[] = e.body ?? [];
  if (fields.length && !bodySchema) problems.push('request body not documented');
  if (bodySchema) {
    const required = new Set(bodySchema.required ?? []);
    for (const f of fields) {
      const prop = bodySchema.properties?.[f.name];
      if (!prop) problems.push(`body field ${f.name} missing`);
      else {
        if (!typeMatches(prop, f.type)) problems.push(`body field ${f.name} is not ${f.type}`);
        if (required.has(f.name) !== f.required)
          problems.push(`body field ${f.name} required=${required.has(f.name)}, interface says ${f.required}`);
      }
    }
    for (const name of required) if (!fields.some((f) => f.name === name)) problems.push(`extra required body field ${name}`);
  }

  const responses = op.responses ?? {};
  const success = Object.keys(responses).filter((s) => /^2\d\d$/.test(s));
  if (e.success !== undefined && !success.includes(String(e.success)))
    problems.push(`success status ${e.success} not documented (has ${success.join(',')})`);
  const main = responses[String(e.success ?? success[0])];
  if (e.noContent || (e.success === undefined && String(e.success ?? success[0]) === '204')) {
    if (main?.content && Object.keys(main.content).length) problems.push('documents a body where the interface says no content');
  } else if (!main?.content?.['application/json']?.schema) {
    problems.push('success response has no schema');
  }
  if (e.path.startsWith('/v1/user/auth/') || e.path === '/v1/user/register/password') {
    const s = resolve(main?.content?.['application/json']?.schema);
    const expected = e.path.endsWith('refresh-session') ? ['sessionToken'] : SESSION_RESULT_FIELDS;
    for (const f of expected) if (!s?.properties?.[f]) problems.push(`session result lacks ${f}`);
  }
  return problems;
}

describe('openapi.json conforms to the interface', () => {
  it('lists 59 interface endpoints', () => {
    expect(INTERFACE_ENDPOINTS).toHaveLength(59);
  });

  it.each(INTERFACE_ENDPOINTS.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))('%s', (_name, e) => {
    expect(check(e)).toEqual([]);
  });
});

/** Operations the interface itself defines as "201, no content". */
const NO_CONTENT = new Set(INTERFACE_ENDPOINTS.filter((e) => e.noContent).map((e) => `${e.method.toUpperCase()} ${e.path}`));

describe('every operation documents a success response schema and its errors', () => {
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
  );
  it.each(ops)('%s', (name, op) => {
    const responses = op.responses ?? {};
    // A success is a 2xx, or a redirect that says where to (a visit task's link).
    const success = Object.entries(responses).filter(([s]) => /^(2\d\d|30[2378])$/.test(s));
    expect(success.length).toBeGreaterThan(0);
    for (const [status, r] of success) {
      if (status.startsWith('3')) {
        expect((r as { headers?: Record<string, unknown> }).headers?.Location).toBeDefined();
        continue;
      }
      if (status === '204' || (status === '201' && !r.content && NO_CONTENT.has(name))) continue;
      // JSON, or an event stream (the live notification stream) documented with its own schema.
      expect(r.content?.['application/json']?.schema ?? r.content?.['text/event-stream']?.schema).toBeDefined();
    }
  });
});
