import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_SECURITY, SESSION_SECURITY } from './common/auth/auth.decorators.js';
import { ErrorBodyDto } from './common/errors/error-body.dto.js';
import { errorResponse } from './common/errors/api-errors.decorator.js';
import { CommonErrors, errorCatalog, type ErrorDefinition } from './common/errors/error-catalog.js';
import { eventSchemaComponents } from './integrations/event-catalog.js';
import { API_TAGS } from './openapi-layout.js';

/** How an error body reads; shared by this description and docs/errors.md. */
export const ERROR_BODY_TEXT = `Every error is JSON \`{code, message, error, detail}\` (plus \`requestId\`, and \`details\` for some errors).
\`message\` carries the interface's identifier: \`generic_client_error\` (code 10002) for every 400;
\`GENERIC_UNAUTHORIZED\`, \`SESSION_TOKEN_EXPIRED\` (refresh the session) or \`REFRESH_TOKEN_EXPIRED\`
(log in again) for every 401; the \`error\` identifier for every other status. \`error\` names the
precise case, \`detail\` explains it in words (never parse it).`;

/** Newlines inside a paragraph would be line breaks in Swagger UI (it renders with `breaks`). */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

const TENANT_TEXT = `Every request runs in a tenant, found in this order: (1) the tenant of the session
token, when one is sent (on any route; an invalid or expired token on a public route is ignored);
(2) \`X-Tenant-Id\` (tenant id or slug; naming another tenant than the session's is 401);
(3) the host name the service is called on, when an operator assigned it to a tenant
(\`PUT /v1/admin/tenant/domains\`); (4) the deployment's \`DEFAULT_TENANT\`; (5) the only tenant.
So a client pointed at its tenant's own domain needs no extra header. When nothing names a tenant:
400 \`tenant_required\`. Management routes run in the tenant of their API key.`;

/**
 * The top of /docs: a few lines, so that the first operations show on the first screen; the tenant
 * rules and the error catalogue are collapsed sections under them (Swagger UI renders Markdown and
 * keeps `<details>`).
 */
function apiDescription(): string {
  const catalog = errorCatalog();
  return [
    "Backend for gaming communities: logins, communities with XP and leaderboards, quests and quest events, inventories and avatars, a store, prizes, socials, profiles and notifications. The groups follow the order of the interface specification; this service's extensions (Health) come after them and the management API (`/v1/admin`, `X-Api-Key`) comes last.",
    '',
    '- **Sessions.** Logins return `sessionToken` (10 minutes) and `refreshToken` (30 days). Routes with a lock need `Authorization: Bearer <sessionToken>` (**Authorize** below).',
    '- **Tenant.** From the session token, else `X-Tenant-Id`, else the host name: see *Tenants* below.',
    `- **Errors.** JSON \`{code, message, error, detail, requestId}\`: see *Error codes* below (${catalog.length} codes).`,
    "- **Caching.** Every answer is `Cache-Control: no-store` and carries no ETag: it may hold the caller's own data. Ask again for a fresher view.",
    '',
    '<details id="tenants"><summary><b>Tenants</b></summary>',
    '',
    oneLine(TENANT_TEXT),
    '',
    '</details>',
    '<details id="error-codes"><summary><b>Error codes</b></summary>',
    '',
    oneLine(ERROR_BODY_TEXT),
    '',
    errorTableMarkdown(),
    '',
    '</details>',
  ].join('\n');
}

/** The error catalogue as a Markdown table. */
export function errorTableMarkdown(): string {
  const rows = errorCatalog().map((e) => `| ${e.status} | ${e.code} | \`${e.message}\` | \`${e.error}\` | ${e.description} |`);
  return ['| HTTP | code | message | error | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Sorts object keys recursively so the committed document is stable. */
function sortKeys(value: unknown, path: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, path));
  if (value && typeof value === 'object') {
    // Keep authored order inside schemas' property lists and enums: it is meaningful to readers.
    const keepOrder = path.at(-1) === 'properties';
    const entries = Object.entries(value as Record<string, unknown>);
    const ordered = keepOrder ? entries : entries.sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(ordered.map(([k, v]) => [k, sortKeys(v, [...path, k])]));
  }
  return value;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Community Gaming Service')
    .setDescription(apiDescription())
    .setVersion('1')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session token from a login' }, SESSION_SECURITY)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key', description: "The tenant's management API key" }, API_KEY_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
    extraModels: [ErrorBodyDto],
  });
  // The payloads of the integrations' events (webhooks, NATS): JSON Schemas of no route's body.
  Object.assign((document.components ??= {}).schemas ?? (document.components.schemas = {}), eventSchemaComponents());
  // Operations without a security requirement are public: say so explicitly (`security: []`).
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item as Record<string, { security?: unknown[]; responses?: unknown }>)) {
      if (op && typeof op === 'object' && 'responses' in op && !op.security) op.security = [];
    }
  }
  addCommonErrors(document);
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { operationId?: string }>)) {
      if (!op?.operationId) continue;
      const prev = ids.get(op.operationId);
      if (prev) throw new Error(`operationId ${op.operationId} is used by ${prev} and ${method.toUpperCase()} ${path}`);
      ids.set(op.operationId, `${method.toUpperCase()} ${path}`);
    }
  }
  return inLayoutOrder(sortKeys(document) as OpenAPIObject);
}

/**
 * What every operation can answer beside its own cases, added here once where an operation does
 * not already list the status:
 * - the request's checks before any route runs (src/app.setup.ts, src/common/validation): 400 (a
 *   query or body it cannot take: prototype names, encoding, limits), 408 (not received in full
 *   within REQUEST_TIMEOUT_MS), 413 (a body over BODY_LIMIT), 415 (a body that is not JSON in
 *   UTF-8, sent to any route) and 431 (a request line or headers over Node's limit);
 * - on the public `/v1` routes, 401 `tenant_mismatch`: a session token is read on every route
 *   (it names the tenant), so one sent with an `X-Tenant-Id` of another tenant is refused there too;
 * - `default`: any other status (500, 503 with `Retry-After`, ...) in the same error body, so that a
 *   generated client reads every error it did not expect.
 */
function addCommonErrors(document: OpenAPIObject): void {
  const response = (status: number, list: ErrorDefinition[]) => {
    const { description, example } = errorResponse(status, list);
    return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' }, example } } };
  };
  const checks: [number, ErrorDefinition[]][] = [
    [400, [CommonErrors.generic_client_error, CommonErrors.unsafe_input]],
    [408, [CommonErrors.request_timeout]],
    [413, [CommonErrors.payload_too_large]],
    [415, [CommonErrors.unsupported_media_type]],
    [431, [CommonErrors.headers_too_large]],
  ];
  const unexpected = {
    description: `Any other error, in the same body: \`internal_error\` (500), \`service_unavailable\` or \`database_timeout\` (503, with \`Retry-After\`: the request may be sent again as it was), ...`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item as Record<string, { responses?: Record<string, unknown>; security?: unknown[] }>)) {
      if (!op?.responses) continue;
      for (const [status, list] of checks) op.responses[String(status)] ??= response(status, list);
      if (path.startsWith('/v1/') && op.security?.length === 0) op.responses['401'] ??= response(401, [CommonErrors.tenant_mismatch]);
      op.responses.default ??= unexpected;
    }
  }
}

/**
 * Declares the tags in the order of src/openapi-layout.ts (Swagger UI shows tags in the order of
 * `tags`) and puts the paths of the interface's endpoints first, in the interface's order (a tag's
 * `shownFirst` before its others; Swagger
 * UI lists a tag's operations in the order of `paths`; a path's methods stay together, at the place
 * of its first interface endpoint); the other paths keep their sorted order.
 */
function inLayoutOrder(document: OpenAPIObject): OpenAPIObject {
  const rank = new Map<string, number>();
  const tagOf = new Map<string, string>();
  for (const tag of API_TAGS) {
    for (const endpoint of [...(tag.shownFirst ?? []), ...tag.endpoints.filter((e) => !tag.shownFirst?.includes(e))]) {
      rank.set(endpoint, rank.size);
      tagOf.set(endpoint, tag.name);
    }
  }
  const declared = new Set(API_TAGS.map((t) => t.name));
  const pathRank = new Map<string, number>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { tags?: string[] }>)) {
      const endpoint = `${method.toUpperCase()} ${path}`;
      for (const tag of op?.tags ?? []) {
        if (!declared.has(tag)) throw new Error(`${endpoint} has tag ${tag}, which src/openapi-layout.ts does not place`);
      }
      const expected = tagOf.get(endpoint);
      if (expected && !op?.tags?.includes(expected)) throw new Error(`${endpoint} should have tag ${expected} (src/openapi-layout.ts)`);
      const r = rank.get(endpoint);
      if (r !== undefined) pathRank.set(path, Math.min(r, pathRank.get(path) ?? r));
      rank.delete(endpoint);
    }
  }
  if (rank.size > 0) throw new Error(`src/openapi-layout.ts lists endpoints the service lacks: ${[...rank.keys()].join(', ')}`);
  // Array.prototype.sort is stable: paths outside the interface keep their alphabetical order.
  const paths = Object.entries(document.paths).sort(
    ([a], [b]) => (pathRank.get(a) ?? Number.MAX_SAFE_INTEGER) - (pathRank.get(b) ?? Number.MAX_SAFE_INTEGER),
  );
  return {
    ...document,
    tags: API_TAGS.map(({ name, description }) => ({ name, description })),
    paths: Object.fromEntries(paths),
  };
}

/**
 * Swagger UI's behaviour in the browser. A response that carries a session (a login, a
 * registration, a refresh under /v1/user) authorises the `session` scheme with its token, so the
 * next "Try it out" is signed in without a trip to Authorize; a logout clears it. Swagger UI runs
 * the interceptor from its source text (@nestjs/swagger writes functions into the page as they
 * are), so it names nothing outside itself; the scheme's name is SESSION_SECURITY, which a
 * contract test holds it to.
 */
export const SWAGGER_UI_OPTIONS = {
  persistAuthorization: true,
  displayRequestDuration: true,
  responseInterceptor: (res: { ok: boolean; url: string; body?: { sessionToken?: unknown } }) => {
    const page = globalThis as unknown as {
      location: { href: string };
      ui?: { preauthorizeApiKey(scheme: string, value: string): void; authActions: { logout(schemes: string[]): void } };
    };
    const ui = page.ui;
    const path = new URL(res.url, page.location.href).pathname;
    if (ui && res.ok && path.startsWith('/v1/user/') && typeof res.body?.sessionToken === 'string')
      ui.preauthorizeApiKey('session', res.body.sessionToken);
    else if (ui && res.ok && path === '/v1/user/auth/logout') ui.authActions.logout(['session']);
    return res;
  },
};
