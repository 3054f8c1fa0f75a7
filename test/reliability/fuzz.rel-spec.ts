import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { createTestDatabase } from '../setup/test-database.js';
import {
  createTenantWithCli,
  setTenantSettings,
  startApp,
  startCluster,
  type AppInstance,
  type Cluster,
  type HttpResult,
} from '../helpers/processes.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/auth.js';
import {
  asAdmin,
  countBy,
  givenCommunity,
  givenItem,
  givenListing,
  givenPrize,
  givenResourceType,
  grant,
  pool,
  register,
  report,
  rowCounts,
  scale,
  unique,
  type User,
} from './support.js';
import { interfaceMessage } from '../helpers/errors.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

const CASES_PER_OPERATION = scale(12, 120);
const SEED = Number(process.env.RELIABILITY_SEED ?? 20251122);

const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as Schema;
const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Schema>>)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })))
  .filter((o) => o.path.startsWith('/v1/'));

function deref(s: Schema | undefined): Schema {
  let out = s ?? {};
  while (out.$ref) out = doc.components.schemas[(out.$ref as string).split('/').pop()!];
  if (out.allOf) out = Object.assign({}, ...out.allOf.map(deref), { ...out, allOf: undefined });
  return out;
}

/** A plausible valid value for a schema (its example, else built from the type). */
function exampleOf(schema: Schema | undefined, depth = 0): any {
  const s = deref(schema);
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.oneOf || s.anyOf) return exampleOf((s.oneOf ?? s.anyOf)[0], depth + 1);
  switch (s.type) {
    case 'object': {
      if (depth > 4) return {};
      const props = (s.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(props)
          .filter(([k]) => (s.required ?? []).includes(k) || depth === 0)
          .map(([k, v]) => [k, exampleOf(v, depth + 1)]),
      );
    }
    case 'array':
      return depth > 4 ? [] : [exampleOf(s.items, depth + 1)];
    case 'integer':
      return s.minimum ?? 1;
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date-time') return new Date().toISOString();
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return {};
  }
}

// ---- arbitraries of bad input ------------------------------------------------------------------
/** Deeply nested JSON, written as text (too deep for JSON.stringify in the test's VM). */
class Deep {
  constructor(readonly depth: number) {}
}
const deep = (depth: number) => new Deep(depth);
function toJson(v: unknown): string | undefined {
  if (v instanceof Deep) return `${'{"a":'.repeat(v.depth)}1${'}'.repeat(v.depth)}`;
  if (Array.isArray(v)) return `[${v.map((x) => toJson(x) ?? 'null').join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x) ?? 'null'}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\u202e\u0645rtl',
  '💥'.repeat(300),
  'ǅ'.repeat(50),
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  '{{7*7}}',
  '${jndi:ldap://x}',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-0',
  '0x10',
  '00000000-0000-0000-0000-000000000000',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
);
const hugeString = fc.constantFrom(10_000, 90_000, 200_000).map((n) => 'A'.repeat(n));
const badNumber = fc.constantFrom(-1, 0, -0.5, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MAX_SAFE_INTEGER, 1e21);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  badNumber,
  fc.integer(),
  fc.double({ noNaN: true }),
  nasty,
  hugeString,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.jsonValue(), { maxLength: 4 }),
  fc.constantFrom(10_000, 50_000).map((n) => Array.from({ length: n }, () => 1)),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 4 }),
  fc.constantFrom(50, 500, 5_000).map(deep),
);
/** Names a client could add to set what it must never set itself. */
const massAssignment = fc.constantFrom(
  'id',
  'userId',
  'tenantId',
  'balance',
  'earned',
  'status',
  'role',
  'isAdmin',
  'admin',
  'sold',
  'granted',
  'awarded',
  'verified',
  'createdAt',
  'passwordHash',
  '__proto__',
  'constructor',
);
// `raw:` values go into the path as they are: invalid percent-encodings and UTF-8.
const badId = fc.oneof(
  nasty,
  fc.constantFrom(
    randomUUID(),
    'x'.repeat(300),
    '0',
    '-1',
    'null',
    'undefined',
    '%F0%9F%92%A5',
    '..',
    '%2F',
    'raw:%ED%A0%80',
    'raw:%FF%FE',
    'raw:%',
    'raw:%zz',
    'raw:..%2F..%2F',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
);
/** Percent-encodes a path segment; lone surrogates become U+FFFD (encodeURIComponent would throw). */
const encodeSegment = (v: string) =>
  v.startsWith('raw:') ? v.slice(4) : encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());
const badPaging = fc.record({
  name: fc.constantFrom('page', 'limit'),
  value: fc.constantFrom('0', '-1', '1.5', 'abc', '1e3', '99999999999', '101', '', ' 1', '0x10', 'NaN'),
});

type Mutation =
  | { kind: 'drop' | 'wrongType'; index: number; value: unknown }
  | { kind: 'extra'; name: string; value: unknown }
  | { kind: 'body'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'query'; name: string; value: string; repeat: boolean }
  | { kind: 'paging'; name: string; value: string }
  | { kind: 'path'; index: number; value: string }
  | ProtoCase;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), index: fc.nat(), value: fc.constant(undefined) }),
  fc.record({ kind: fc.constant('wrongType' as const), index: fc.nat(), value: badValue }),
  fc.record({
    kind: fc.constant('extra' as const),
    name: fc.oneof(massAssignment, fc.string({ minLength: 1, maxLength: 12 })),
    value: badValue,
  }),
  fc.record({
    kind: fc.constant('body' as const),
    value: fc.oneof(fc.constant(null), fc.jsonValue(), fc.array(fc.jsonValue()), fc.constantFrom(60, 600).map(deep), badNumber, nasty),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(
      fc.constantFrom('{', '{"a":', '[1,]', '{"a":1}}', 'nul', '\u0000', "{'a':1}", deepArray(20_000), deepArray(45_000)),
      fc.string({ maxLength: 30 }),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-7',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
    ),
  }),
  fc.record({
    kind: fc.constant('query' as const),
    name: fc.oneof(
      fc.constantFrom('page', 'limit', 'userId', 'containerId', 'fields', 'onlyOwned', 'ownedOnly', '__proto__', 'filter[status]', 'tags'),
      fc.string({ minLength: 1, maxLength: 10 }),
    ),
    value: fc.oneof(nasty, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constant('x'.repeat(5000))),
    repeat: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('paging' as const), name: badPaging.map((p) => p.name), value: badPaging.map((p) => p.value) }),
  fc.record({ kind: fc.constant('path' as const), index: fc.nat(), value: badId }),
);

// ---- the prototype-key class (issue 15): every position of every operation, not sampled ----------
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
type ProtoKey = (typeof PROTO_KEYS)[number];
/** What a key carries: the shape a recursive merge follows onto Object.prototype. */
const protoPayload = (key: ProtoKey) => (key === 'constructor' ? { prototype: { polluted: 'yes' } } : { polluted: 'yes' });
/** Query names with a prototype name as a parameter, a deepObject parent or child, an array; `raw:` ones percent-encoded by hand. */
const PROTO_QUERY_NAMES = [
  '__proto__',
  '__proto__[polluted]',
  '__proto__[]',
  'constructor',
  'constructor[prototype][polluted]',
  'prototype[polluted]',
  'x[__proto__]',
  'x[constructor][prototype]',
  'filter[__proto__]',
  'filter[status][__proto__]',
  'filter[constructor][prototype]',
  'raw:%5F%5Fproto%5F%5F%5Bpolluted%5D',
  'raw:constructor%5Bprototype%5D%5Bpolluted%5D',
];

type ProtoCase =
  | { kind: 'protoBody'; at: (string | number)[]; key: ProtoKey }
  | { kind: 'protoQuery'; name: string }
  | { kind: 'protoPath'; name: string; key: ProtoKey }
  | { kind: 'protoHeader'; key: ProtoKey };

/** Where a key can be added in a body: the object itself and every object nested in it (in arrays too). */
function objectPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...at, i]));
  if (value === null || typeof value !== 'object') return [];
  return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

/** `key` as an own property (an assignment of `__proto__` would set the prototype instead), as JSON.parse makes it. */
const defineOwn = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * The prototype-key cases of one operation: each key as a body key at the top and inside every
 * object of the example body (extraArgs, data, requirementData[i].data, address, dateOfBirth, ...),
 * as a query name in every form (also under each documented query parameter), as every path
 * parameter, and as a header name.
 */
function protoCases(o: Operation, params: Schema[], body: unknown): ProtoCase[] {
  const bodyPaths = body !== null && typeof body === 'object' && !Array.isArray(body) ? objectPaths(body) : [[]];
  const queryNames = [
    ...PROTO_QUERY_NAMES,
    ...params
      .filter((p) => p.in === 'query')
      .flatMap((p) => [`${p.name}[__proto__]`, `${p.name}[constructor][prototype]`, `${p.name}[prototype]`]),
  ];
  return [
    ...bodyPaths.flatMap((at) => PROTO_KEYS.map((key) => ({ kind: 'protoBody' as const, at, key }))),
    ...queryNames.map((name) => ({ kind: 'protoQuery' as const, name })),
    ...params
      .filter((p) => p.in === 'path')
      .flatMap((p) => PROTO_KEYS.map((key) => ({ kind: 'protoPath' as const, name: p.name as string, key }))),
    ...PROTO_KEYS.map((key) => ({ kind: 'protoHeader' as const, key })),
  ];
}

/** What a prototype-key case must get: body and query keys are refused (400); a path segment is 4xx; a header anything but 5xx. */
function protoAnswerProblem(m: ProtoCase, status: number): string | null {
  if (m.kind === 'protoBody' || m.kind === 'protoQuery') return status === 400 ? null : `expected 400, got ${status}`;
  if (m.kind === 'protoPath') return status >= 400 && status < 500 ? null : `expected 4xx, got ${status}`;
  return status < 500 ? null : `got ${status}`;
}

/** Another tenant's view of the service: a password login, a public read, an admin read, and readiness (a clean Object.prototype). */
interface Bystander {
  tenant: TenantCredentials;
  user: User;
  community: { id: string; slug: string };
}
async function bystanderProblems(app: AppInstance, b: Bystander): Promise<string[]> {
  const checks: [string, Promise<HttpResult>][] = [
    [
      'password login',
      app.call('POST', '/v1/user/auth/password/login', {
        headers: { 'X-Tenant-Id': b.tenant.id },
        body: { username: b.user.username, password: b.user.password },
      }),
    ],
    ['public read', app.call('GET', `/v1/community/${b.community.slug}`, { headers: { 'X-Tenant-Id': b.tenant.id } })],
    ['admin read', app.call('GET', '/v1/admin/communities', { headers: asAdmin(b.tenant) })],
    ['readiness', app.call('GET', '/health/ready')],
  ];
  const out: string[] = [];
  for (const [what, call] of checks) {
    const r = await call;
    if (r.status !== 200) out.push(`${what} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  return out;
}

/**
 * Part 5: a fuzzer driven by the committed openapi.json. For every operation it takes a valid-looking
 * request (schema examples, real ids) and breaks it one way: a missing, ill-typed or extra field
 * (including mass-assignment names), a body of the wrong shape, invalid or deep JSON, huge strings
 * and arrays, unicode, negative and enormous numbers, bad ids, bad pagination, unknown or repeated
 * query parameters; then it sends the prototype keys (`__proto__`, `constructor`, `prototype`) in
 * every position of the operation. Never a 5xx; every 4xx is the interface's {code, message} with error and detail; a refused request
 * changes no row; prototype keys in a body or query are refused; and after each operation's batch
 * another tenant still logs in, reads and administers, and the process is ready (its Object.prototype
 * is clean): a 200 to an attack is no proof that it harmed nobody.
 */
describe(`fuzzer: ${operations.length} operations from openapi.json × ${CASES_PER_OPERATION} malformed requests + the prototype keys in every position`, () => {
  let c: Cluster;
  let user: User;
  let bystander: Bystander;
  let oidc: TestOidcProvider;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // providerA configured (a local JWKS), so its login answers 401 to bad credentials, not 503 "not configured"
    oidc = await startOidcProvider();
    c = await startCluster(createTestDatabase, 1, { PROVIDER_A_JWKS_URL: oidc.jwksUrl, PROVIDER_A_ISSUER: oidc.issuer });
    setTenantSettings(c.databaseUrl, c.tenant.id, { providerAClientId: 'client-a', siweAllowedOrigins: ['https://game.example.com'] });
    const app = c.apps[0];
    const community = await givenCommunity(app, c.tenant);
    const xp = await givenResourceType(app, c.tenant, community.id);
    const item = await givenItem(app, c.tenant, community.id, { supply: 10 });
    const prize = await givenPrize(app, c.tenant, { communityId: community.id, totalSupply: 10 });
    const listing = await givenListing(app, c.tenant, {
      communityId: community.id,
      kind: 'item',
      itemId: item.id,
      price: [{ resourceTypeId: xp.id, amount: 1 }],
    });
    user = await register(app, c.tenant);
    await grant(app, c.tenant, user.userId, xp.id, 5);
    Object.assign(ids, {
      ckey: community.slug,
      communityId: community.id,
      id: community.id,
      slug: xp.slug,
      resourceTypeId: xp.id,
      itemId: item.id,
      slotId: item.slotId,
      listingId: listing.id,
      prizeId: prize.id,
      tenantId: c.tenant.id,
      username: user.userId,
      type: 'discord',
    });
    const other = createTenantWithCli(c.databaseUrl, unique('bystander-'));
    bystander = { tenant: other, user: await register(app, other), community: await givenCommunity(app, other) };
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await oidc?.close();
  });

  it('answers every malformed request with a 4xx {code, message}, never a 5xx, refuses prototype keys, and refused requests change nothing and harm no one else', async () => {
    const app = c.apps[0];
    const fiveHundreds: string[] = [];
    const badErrorBodies: string[] = [];
    const stateChanges: string[] = [];
    const protoNotRefused: string[] = [];
    const unhealthyAfter: string[] = [];
    const statuses: Record<string, number> = {};
    const mutationKinds: Record<string, number> = {};
    const protoStatuses: Record<string, Record<string, number>> = {};
    let sent = 0;
    let protoSent = 0;
    let writesAccepted = 0;

    // The request of the outage: a 200 that poisoned every tenant.
    const outage = await app.call('GET', '/v1/quest-event?__proto__[polluted]=1', { headers: { Authorization: user.auth } });
    expect({ status: outage.status, code: outage.body?.code, error: outage.body?.error }).toEqual({
      status: 400,
      code: 10002,
      error: 'unsafe_input',
    });

    for (const [k, o] of operations.entries()) {
      const params = ((o.op.parameters ?? []) as Schema[]).map((p) => (p.$ref ? deref(p) : p));
      const pathParams = params.filter((p) => p.in === 'path');
      const query = params.filter((p) => p.in === 'query' && p.required);
      const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
      const secured = ((o.op.security ?? []) as Schema[]).flatMap((s) => Object.keys(s));
      const headers: Record<string, string> = { 'X-Tenant-Id': c.tenant.id };
      if (secured.includes('session')) headers.Authorization = user.auth;
      if (secured.includes('api-key')) Object.assign(headers, asAdmin(c.tenant));

      const cases: Mutation[] = [
        ...fc.sample(mutation, { numRuns: CASES_PER_OPERATION, seed: SEED + k }),
        ...protoCases(o, params, bodySchema ? exampleOf(bodySchema) : undefined),
      ];
      const before = await rowCounts(c.sql);
      let acceptedWrite = false;
      const results = await pool(6, cases.length, async (i): Promise<HttpResult & { m: Mutation }> => {
        const m = cases[i];
        // the valid-looking request
        let path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? randomUUID()));
        const qs = new URLSearchParams();
        const rawQuery: string[] = [];
        for (const p of query) {
          const v = exampleOf(p.schema);
          for (const one of Array.isArray(v) ? v : [v]) qs.append(p.name, String(one));
        }
        let body: unknown = bodySchema ? exampleOf(bodySchema) : undefined;
        let raw: string | undefined;
        const h = { ...headers };
        let sendBody = o.method !== 'GET' && o.method !== 'DELETE';
        // one way of breaking it
        const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
        switch (m.kind) {
          case 'drop':
            if (fields.length) delete (body as Record<string, unknown>)[fields[m.index % fields.length]];
            else if (query.length) qs.delete(query[m.index % query.length].name);
            else body = { unexpected: true };
            break;
          case 'wrongType':
            if (fields.length) (body as Record<string, unknown>)[fields[m.index % fields.length]] = m.value;
            else if (query.length)
              qs.set(query[m.index % query.length].name, typeof m.value === 'string' ? m.value : (JSON.stringify(m.value) ?? 'null'));
            else body = m.value;
            break;
          case 'extra':
            // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc refuses a spread of `unknown` (TS2698); a literal keeps `__proto__` an own key, Object.assign would not
            body = { ...(fields.length ? (body as Record<string, unknown>) : {}), [m.name]: m.value };
            break;
          case 'body':
            body = m.value;
            break;
          case 'raw':
            raw = m.text;
            h['content-type'] = m.contentType;
            break;
          case 'query':
            qs.append(m.name, m.value);
            if (m.repeat) qs.append(m.name, m.value);
            break;
          case 'paging':
            qs.set(m.name, m.value);
            break;
          case 'path':
            if (pathParams.length) {
              const name = pathParams[m.index % pathParams.length].name;
              path = o.path.replace(/\{(\w+)\}/g, (_, n: string) =>
                n === name ? encodeSegment(m.value) : encodeURIComponent(ids[n] ?? randomUUID()),
              );
            } else qs.append('id', m.value);
            break;
          case 'protoBody': {
            // also on GET and DELETE: the body is checked where it is parsed, whatever the route reads
            body = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
            const target = m.at.reduce<any>((node, step) => node[step], body);
            defineOwn(target, m.key, protoPayload(m.key));
            sendBody = true;
            break;
          }
          case 'protoQuery':
            if (m.name.startsWith('raw:')) rawQuery.push(`${m.name.slice(4)}=1`);
            else qs.append(m.name, '1');
            break;
          case 'protoPath':
            path = o.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === m.name ? m.key : encodeURIComponent(ids[n] ?? randomUUID())));
            break;
          case 'protoHeader':
            defineOwn(h, m.key, 'polluted');
            break;
        }
        const search = [qs.toString(), ...rawQuery].filter(Boolean).join('&');
        const url = `${path}${search ? `?${search}` : ''}`;
        if (sendBody && raw === undefined && body !== undefined) {
          raw = toJson(body);
          h['content-type'] = 'application/json';
        }
        const r = await app.call(o.method, url, { headers: h, ...(sendBody && raw !== undefined ? { rawBody: raw } : {}) });
        return { ...r, m };
      });
      const after = await rowCounts(c.sql);
      for (const problem of await bystanderProblems(app, bystander)) unhealthyAfter.push(`after ${o.method} ${o.path}: ${problem}`);

      for (const r of results) {
        sent++;
        mutationKinds[r.m.kind] = (mutationKinds[r.m.kind] ?? 0) + 1;
        statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
        const label = `${o.method} ${o.path} [${r.m.kind} ${String(JSON.stringify(r.m, (_, v) => (v instanceof Deep ? `deep(${v.depth})` : typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}…(${v.length})` : v))).slice(0, 160)}]`;
        if (r.status >= 500) fiveHundreds.push(`${label} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        if (
          r.status >= 400 &&
          !(
            typeof r.body?.code === 'number' &&
            typeof r.body?.error === 'string' &&
            r.body.message === interfaceMessage(r.status, r.body.error) &&
            typeof r.body?.detail === 'string'
          )
        )
          badErrorBodies.push(`${label} -> ${r.status} ${String(JSON.stringify(r.body)).slice(0, 200)}`);
        if (r.status < 300 && o.method !== 'GET') acceptedWrite = true;
        if (r.m.kind.startsWith('proto')) {
          protoSent++;
          const byStatus = (protoStatuses[r.m.kind] ??= {});
          byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
          const problem = protoAnswerProblem(r.m as ProtoCase, r.status);
          if (problem) protoNotRefused.push(`${label}: ${problem} ${JSON.stringify(r.body).slice(0, 160)}`);
        }
      }
      if (acceptedWrite) writesAccepted++;
      else {
        // By design: rank counters are folded from their deltas every second in the background, and
        // the audit log records every management write that reached a route, refused ones too
        // (written in batches after the responses, so also during the next operations).
        const byDesign = (t: string) => t.startsWith('resource_rank_bucket') || t === 'admin_audit_log';
        const changed = Object.keys({ ...before, ...after }).filter((t) => !byDesign(t) && before[t] !== after[t]);
        if (changed.length) stateChanges.push(`${o.method} ${o.path}: ${changed.map((t) => `${t} ${before[t]}→${after[t]}`).join(', ')}`);
      }
    }

    report('5. fuzzer (openapi.json)', {
      seed: SEED,
      operations: operations.length,
      requests: sent,
      statuses,
      mutationKinds,
      fiveHundreds: fiveHundreds.length,
      errorBodiesNotInTheInterfaceShape: badErrorBodies.length,
      operationsWithAnAcceptedWrite: writesAccepted,
      rowCountChangesFromRefusedRequests: stateChanges.length,
      outageRequestOfIssue15: outage.status,
      prototypeKeyRequests: protoSent,
      prototypeKeyStatuses: protoStatuses,
      prototypeKeysNotRefused: protoNotRefused.length,
      bystanderChecks: `${operations.length} batches × 4 (login, public read, admin read, readiness): ${unhealthyAfter.length} failed`,
    });
    if (process.env.RELIABILITY_APP_LOG)
      // eslint-disable-next-line no-console -- asked for with RELIABILITY_APP_LOG
      console.log(
        app
          .output()
          .split('\n')
          .filter((l) => l.includes('unhandled'))
          .map((l) => l.slice(l.indexOf('"err"'), l.indexOf('"err"') + 700))
          .join('\n'),
      );
    expect({ fiveHundreds, badErrorBodies, stateChanges, protoNotRefused, unhealthyAfter }).toEqual({
      fiveHundreds: [],
      badErrorBodies: [],
      stateChanges: [],
      protoNotRefused: [],
      unhealthyAfter: [],
    });
    expect(countBy(Object.keys(statuses), (s) => s[0])['5']).toBeUndefined();
  }, 900_000);

  it('keeps a process healthy for everyone when its own code merges client JSON into a plain object (the next such bug)', async () => {
    // test/reliability/fixtures/pollute-on-signal.mjs is loaded into the app process and, on SIGWINCH,
    // runs the recursive merge of issue 15 over `__proto__` and `constructor.prototype` payloads.
    const preload = pathToFileURL(resolve('test/reliability/fixtures/pollute-on-signal.mjs')).href;
    const buggy = await startApp({ databaseUrl: c.databaseUrl, name: 'buggy', env: { NODE_OPTIONS: `--import=${preload}` } });
    try {
      process.kill(buggy.pid()!, 'SIGWINCH');
      const deadline = Date.now() + 10_000;
      let line: RegExpExecArray | null = null;
      while (!(line = /\[pollute-on-signal\] (.*)/.exec(buggy.output())) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(line).not.toBeNull();
      const seen = JSON.parse(line![1]) as { merges: string[]; polluted: unknown; inheritedFromSwap: unknown };
      const unhealthy = await bystanderProblems(buggy, bystander);
      report('5b. a pollution bug inside the process', {
        merges: seen.merges,
        objectPrototypePolluted: seen.polluted !== null,
        prototypeSwappedThroughProto: seen.inheritedFromSwap !== null,
        bystanderChecksFailed: unhealthy.length,
      });
      expect({ polluted: seen.polluted, inheritedFromSwap: seen.inheritedFromSwap, unhealthy }).toEqual({
        polluted: null,
        inheritedFromSwap: null,
        unhealthy: [],
      });
    } finally {
      await buggy.kill();
    }
  }, 120_000);
});
