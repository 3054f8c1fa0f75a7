/**
 * The C# client's generated half (`clients/csharp/CommunityGaming.Client/Generated`), written by
 * `npm run openapi` from the OpenAPI document: one class per schema of the player API and one
 * method per operation under `/v1` outside `/v1/admin`. The hand-written half (sessions, refresh,
 * errors, query strings, transports) is beside it. No maintained generator runs here: the
 * OpenAPI Generator and NSwag need Java or .NET and a download from their registries
 * (docs/decisions.md, "The C# client").
 *
 * The C# is the subset Mono's `mcs` and Unity's compiler both take (C# 7.2, no nullable reference
 * types), with Newtonsoft.Json attributes (Unity ships it as com.unity.nuget.newtonsoft-json).
 */

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  description?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  style?: string;
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const NAMESPACE = 'CommunityGaming.Client';
const HEADER = '// Generated from openapi.json by `npm run openapi` (src/cli/csharp-client.ts). Do not edit.';

/** C#'s reserved words, which a parameter named so must be written with `@`. */
const KEYWORDS = new Set(
  (
    'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum ' +
    'event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace ' +
    'new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc ' +
    'static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while'
  ).split(' '),
);

/** `some-name_here` or `someName` → `SomeNameHere` / `SomeName`. */
export function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const out = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return /^[0-9]/.test(out) ? `_${out}` : out;
}

/** A parameter name: camelCase, `@` before a keyword. */
export function camel(name: string): string {
  const p = pascal(name);
  const c = p[0].toLowerCase() + p.slice(1);
  return KEYWORDS.has(c) ? `@${c}` : c;
}

const refName = (ref: string) => ref.split('/').pop()!;

/** Whether components.schemas[name] is a string enum (mapped to `string`, its values in the docs). */
const isEnum = (schemas: Record<string, Schema>, name: string) => {
  const s = schemas[name];
  return !!s && s.type === 'string' && Array.isArray(s.enum);
};

/** The C# type of a schema; `optional` makes value types nullable. */
export function csType(schema: Schema | undefined, schemas: Record<string, Schema>, optional: boolean): string {
  if (!schema) return 'JToken';
  if (schema.$ref) return isEnum(schemas, refName(schema.$ref)) ? 'string' : pascal(refName(schema.$ref));
  if (schema.allOf?.length === 1) return csType(schema.allOf[0], schemas, optional || schema.nullable === true);
  if (schema.oneOf || schema.anyOf || schema.allOf) return 'JToken';
  const value = (t: string) => (optional || schema.nullable ? `${t}?` : t);
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return value('long');
    case 'number':
      return value('double');
    case 'boolean':
      return value('bool');
    case 'array':
      return `List<${csType(schema.items, schemas, false)}>`;
    case 'object':
      if (schema.properties) return 'JObject';
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        return `Dictionary<string, ${csType(schema.additionalProperties, schemas, false)}>`;
      return 'JObject';
    default:
      return 'JToken';
  }
}

const doc = (text: string | undefined, indent: string): string[] => {
  if (!text) return [];
  const safe = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [`${indent}/// <summary>`, ...safe.split('\n').map((l) => `${indent}/// ${l}`.trimEnd()), `${indent}/// </summary>`];
};

/** Operations the C# client has a method for: the player API (no management, no health). */
export function playerOperations(document: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  const out: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/') || path.startsWith('/v1/admin/')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!op?.responses) continue;
      out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

/** What an operation answers on success: a JSON schema, nothing, or something else (a stream, a redirect). */
function success(op: Operation): { kind: 'json'; schema: Schema } | { kind: 'none' } | { kind: 'other'; why: string } {
  const statuses = Object.keys(op.responses).filter((s) => /^[23]/.test(s));
  for (const status of statuses) {
    const content = op.responses[status].content ?? {};
    if (content['application/json']?.schema) return { kind: 'json', schema: content['application/json'].schema };
    const types = Object.keys(content);
    if (types.length > 0) return { kind: 'other', why: `answers ${types.join(', ')}` };
    if (status.startsWith('3')) return { kind: 'other', why: `answers a redirect (${status})` };
  }
  return { kind: 'none' };
}

/** Schemas the player operations reach, by name. */
function reachable(document: OpenApiDocument, schemas: Record<string, Schema>): string[] {
  const seen = new Set<string>();
  const visit = (s: Schema | undefined) => {
    if (!s) return;
    if (s.$ref) {
      const name = refName(s.$ref);
      if (seen.has(name)) return;
      seen.add(name);
      return visit(schemas[name]);
    }
    for (const p of Object.values(s.properties ?? {})) visit(p);
    visit(s.items);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    for (const x of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(x);
  };
  visit({ $ref: '#/components/schemas/ErrorBodyDto' });
  for (const { op } of playerOperations(document)) {
    for (const p of op.parameters ?? []) visit(p.schema);
    for (const c of Object.values(op.requestBody?.content ?? {})) visit(c.schema);
    for (const r of Object.values(op.responses)) for (const c of Object.values(r.content ?? {})) visit(c.schema);
  }
  return [...seen].filter((n) => !isEnum(schemas, n)).sort();
}

function modelsFile(document: OpenApiDocument, schemas: Record<string, Schema>): string {
  const lines = [
    HEADER,
    '#pragma warning disable 1591',
    'using System.Collections.Generic;',
    'using Newtonsoft.Json;',
    'using Newtonsoft.Json.Linq;',
    '',
  ];
  lines.push(`namespace ${NAMESPACE}`, '{');
  for (const name of reachable(document, schemas)) {
    const s = schemas[name];
    lines.push(...doc(s.description, '    '));
    lines.push(`    public sealed class ${pascal(name)}`, '    {');
    const required = new Set(s.required ?? []);
    const used = new Set<string>([pascal(name)]);
    for (const [prop, ps] of Object.entries(s.properties ?? {})) {
      let member = pascal(prop);
      while (used.has(member)) member = `${member}_`;
      used.add(member);
      const en = ps.$ref && isEnum(schemas, refName(ps.$ref)) ? schemas[refName(ps.$ref)].enum : ps.enum;
      const text = [
        ps.description ?? ps.allOf?.[0]?.description,
        en ? `One of: ${en.map((v) => `\`${String(v)}\``).join(', ')}.` : undefined,
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(...doc(text || undefined, '        '));
      lines.push(
        `        [JsonProperty("${prop}")]`,
        `        public ${csType(ps, schemas, !required.has(prop))} ${member} { get; set; }`,
        '',
      );
    }
    if (lines.at(-1) === '') lines.pop();
    lines.push('    }', '');
  }
  lines.push('}', '');
  return lines.join('\n');
}

function apiFile(document: OpenApiDocument, schemas: Record<string, Schema>): string {
  const lines = [
    HEADER,
    'using System.Collections.Generic;',
    'using System.Threading;',
    'using System.Threading.Tasks;',
    'using Newtonsoft.Json.Linq;',
    '',
    `namespace ${NAMESPACE}`,
    '{',
    "    /// <summary>The player API, one method per operation (the management API is the server side's).</summary>",
    '    public sealed partial class CgsApi',
    '    {',
  ];
  const skipped: string[] = [];
  const names = new Set<string>();
  for (const { method, path, op } of playerOperations(document)) {
    const result = success(op);
    if (result.kind === 'other') {
      skipped.push(`${method} ${path} (${result.why})`);
      continue;
    }
    let name = `${pascal(op.operationId ?? `${method} ${path}`)}Async`;
    while (names.has(name)) name = `${name}_`;
    names.add(name);
    const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
    const pathParams = params.filter((p) => p.in === 'path');
    const query = params.filter((p) => p.in === 'query');
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    const args: string[] = [];
    for (const p of pathParams) args.push(`string ${camel(p.name)}`);
    for (const p of params) {
      if (['requestPath', 'requestQuery', 'requestAnswer', 'body', 'cancellationToken'].includes(camel(p.name)))
        throw new Error(`${method} ${path}: parameter ${p.name} would take the name of the generated method's own variable`);
    }
    if (bodySchema) args.push(`${csType(bodySchema, schemas, false)} body`);
    const requiredQuery = query.filter((p) => p.required);
    const optionalQuery = query.filter((p) => !p.required);
    const queryArg = (p: Parameter, optional: boolean) => {
      const t = p.schema?.type === 'array' ? `IEnumerable<${csType(p.schema.items, schemas, false)}>` : csType(p.schema, schemas, true);
      return `${t} ${camel(p.name)}${optional ? ' = null' : ''}`;
    };
    for (const p of requiredQuery) args.push(queryArg(p, false));
    for (const p of optionalQuery) args.push(queryArg(p, true));
    args.push('CancellationToken cancellationToken = default(CancellationToken)');
    const returns = result.kind === 'json' ? `Task<${csType(result.schema, schemas, false)}>` : 'Task';
    lines.push(...doc(`${method} ${path}${op.summary ? `: ${op.summary}` : ''}`, '        '));
    lines.push(`        public async ${returns} ${name}(${args.join(', ')})`, '        {');
    const pathExpr = pathParams.reduce((expr, p) => expr.replace(`{${p.name}}`, `" + CgsQuery.Escape(${camel(p.name)}) + "`), `"${path}"`);
    lines.push(`            var requestPath = ${pathExpr.replace(/ \+ ""$/, '')};`);
    lines.push('            var requestQuery = new CgsQuery();');
    for (const p of query) {
      const v = camel(p.name);
      if (p.schema?.type === 'array') lines.push(`            requestQuery.AddAll("${p.name}", ${v}, ${p.required ? 'true' : 'false'});`);
      else if (p.style === 'deepObject') lines.push(`            requestQuery.AddObject("${p.name}", ${v});`);
      else lines.push(`            requestQuery.Add("${p.name}", ${v});`);
    }
    const body = bodySchema ? 'body' : 'null';
    const call = `Client.SendAsync("${method}", requestPath, requestQuery, ${body}, cancellationToken).ConfigureAwait(false)`;
    if (result.kind === 'json') {
      lines.push(`            var requestAnswer = await ${call};`);
      lines.push(`            return requestAnswer.As<${csType(result.schema, schemas, false)}>();`);
    } else lines.push(`            await ${call};`);
    lines.push('        }', '');
  }
  if (lines.at(-1) === '') lines.pop();
  lines.push('    }', '}', '');
  if (skipped.length) {
    lines.push("// Not here (use the client's SendAsync, or the platform's own API):");
    for (const s of skipped) lines.push(`//   ${s}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The generated files of the C# client, by path under the repository's root. */
export function csharpClientFiles(document: OpenApiDocument): [string, string][] {
  const schemas = document.components?.schemas ?? {};
  const dir = 'clients/csharp/CommunityGaming.Client/Generated';
  return [
    [`${dir}/Models.cs`, modelsFile(document, schemas)],
    [`${dir}/CgsApi.cs`, apiFile(document, schemas)],
  ];
}
