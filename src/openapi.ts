import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_SECURITY, SESSION_SECURITY } from './common/auth/auth.decorators.js';
import { ErrorBodyDto } from './common/errors/error-body.dto.js';
import { errorCatalog } from './common/errors/error-catalog.js';

/** How an error body reads; shared by this description and docs/errors.md. */
export const ERROR_BODY_TEXT = `Every error is JSON \`{code, message, error, detail}\` (plus \`requestId\`, and \`details\` for some errors).
\`message\` carries the interface's identifier: \`generic_client_error\` (code 10002) for every 400;
\`GENERIC_UNAUTHORIZED\`, \`SESSION_TOKEN_EXPIRED\` (refresh the session) or \`REFRESH_TOKEN_EXPIRED\`
(log in again) for every 401; the \`error\` identifier for every other status. \`error\` names the
precise case, \`detail\` explains it in words (never parse it).`;

const API_DESCRIPTION = `
Backend for gaming communities: logins, communities with XP and leaderboards, quests and quest
events, inventories and avatars, a store, prizes, socials, profiles and notifications.

**Tenants.** Every request runs in a tenant, found in this order: (1) the tenant of the session
token, when one is sent (on any route; an invalid or expired token on a public route is ignored);
(2) \`X-Tenant-Id\` (tenant id or slug; naming another tenant than the session's is 401);
(3) the host name the service is called on, when an operator assigned it to a tenant
(\`PUT /v1/admin/tenant/domains\`); (4) the deployment's \`DEFAULT_TENANT\`; (5) the only tenant.
So a client pointed at its tenant's own domain needs no extra header. When nothing names a tenant:
400 \`tenant_required\`. Management routes run in the tenant of their API key.

**Sessions.** Logins return \`sessionToken\` (10 minutes) and \`refreshToken\` (30 days).
Send \`Authorization: Bearer <sessionToken>\`. Routes marked with a lock need it.

**Management API.** Routes under \`/v1/admin\` take the tenant's API key in \`X-Api-Key\`.

**Errors.** ${ERROR_BODY_TEXT}
`.trim();

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
    .setDescription(`${API_DESCRIPTION}\n\n### Error codes\n\n${errorTableMarkdown()}`)
    .setVersion('1')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session token from a login' }, SESSION_SECURITY)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key', description: "The tenant's management API key" }, API_KEY_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
    extraModels: [ErrorBodyDto],
  });
  // Operations without a security requirement are public: say so explicitly (`security: []`).
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item as Record<string, { security?: unknown[]; responses?: unknown }>)) {
      if (op && typeof op === 'object' && 'responses' in op && !op.security) op.security = [];
    }
  }
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { operationId?: string }>)) {
      if (!op?.operationId) continue;
      const prev = ids.get(op.operationId);
      if (prev) throw new Error(`operationId ${op.operationId} is used by ${prev} and ${method.toUpperCase()} ${path}`);
      ids.set(op.operationId, `${method.toUpperCase()} ${path}`);
    }
  }
  return sortKeys(document) as OpenAPIObject;
}
