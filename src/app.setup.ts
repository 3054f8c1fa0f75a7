import { type ArgumentMetadata, type INestApplication, RequestMethod, ValidationPipe, type ValidationError } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import type { Server } from 'node:http';
import { isUUID } from 'class-validator';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppConfig, trustProxy } from './config/app-config.js';
import { DomainError } from './common/errors/domain-error.js';
import { AllExceptionsFilter, errorBody } from './common/errors/all-exceptions.filter.js';
import { CommonErrors, type ErrorDefinition } from './common/errors/error-catalog.js';
import { ReplicaReads } from './database/replica-reads.js';
import { SWAGGER_UI_OPTIONS, buildOpenApiDocument } from './openapi.js';
import { assertSafeInput } from './common/validation/safe-input.js';
import { parseQuery } from './common/validation/query-parser.js';
import { checkRequestInput } from './common/validation/request-input.middleware.js';
import { ValidatedQueries } from './common/validation/validated-queries.js';
import { memoizeValidationMetadata } from './common/validation/validation-metadata-cache.js';
import { requestId } from './common/logging/request-id.js';
import { quietBoot } from './common/logging/quiet-boot.js';
import { securityHeaders } from './common/security/response-headers.js';
import { Metrics } from './observability/metrics.js';
import { serveJsonAnswers } from './common/serialization/shared-answer.js';
import { serveConsole } from './common/console/serve-console.js';
import { AuditLogMiddleware } from './audit/audit-log.middleware.js';
import { Draining } from './common/lifecycle/draining.js';

interface Violation {
  field: string;
  message: string;
}
function flatten(errors: ValidationError[], parent = ''): Violation[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(missing(e) ?? e.constraints ?? {}).map((m) => ({ field, message: parent ? `${field}: ${m}` : m }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * A required field that was not sent fails every check of its value ("must be a string; must be
 * shorter than..."): say that it is required instead, or what its own `IsDefined` says.
 */
function missing(e: ValidationError): Record<string, string> | undefined {
  if (e.value !== undefined || !e.constraints || (e.children?.length ?? 0) > 0) return undefined;
  return e.constraints.isDefined ? { isDefined: e.constraints.isDefined } : { isDefined: `${e.property} is required` };
}

/**
 * ValidationPipe that first refuses NUL characters in path values (400, not a 500 below) and
 * lower-cases the path's UUIDs. Bodies and queries were checked once as the request came in
 * (`checkRequestInput`, `parseQuery`).
 */
class SafeValidationPipe extends ValidationPipe {
  private readonly queries = new ValidatedQueries();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') {
      assertSafeInput(value, 'path');
      // Ids in lower case, as the bodies' (`IsUuid`): caches and their drops compare them as strings.
      if (typeof value === 'string' && isUUID(value)) value = value.toLowerCase();
    }
    if (metadata.type !== 'query' || !metadata.metatype || !this.toValidate(metadata)) return super.transform(value, metadata);
    // A query DTO is a function of its class and the raw query alone: validated once per distinct query.
    const { hit, key } = this.queries.lookup(metadata.metatype, value);
    if (hit) return hit;
    const dto: unknown = await super.transform(value, metadata);
    return key === undefined ? dto : this.queries.keep(metadata.metatype, key, dto);
  }
}

memoizeValidationMetadata();

/** The validation pipe of every route: unknown fields are refused, values are transformed. */
export const validationPipe = new SafeValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  stopAtFirstError: false,
  exceptionFactory: (errors) => {
    const violations = flatten(errors);
    return new DomainError(CommonErrors.validation_failed, violations.map((v) => v.message).join('; ') || 'Invalid request', {
      fields: [...new Set(violations.map((v) => v.field))],
    });
  },
});

/** `/v1` on every route but the operator's: health checks and metrics. */
export function applyGlobalPrefix(app: INestApplication): void {
  app.setGlobalPrefix('v1', {
    exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
    ],
  });
}

/**
 * Everything that makes the HTTP surface: `/v1` prefix (health and metrics outside it), request
 * metrics, query parser, input checks, validation, error filter, the audit log of management writes,
 * security headers, body limit, the
 * operator console (`/console`), Swagger. `bootstrap.ts` and
 * every e2e test call this.
 */
export function setupApp(app: INestApplication, options: { swagger?: boolean } = {}): INestApplication {
  const config = app.get(AppConfig);
  const express = app as NestExpressApplication;
  express.useLogger(quietBoot(app.get(Logger)));
  express.disable('x-powered-by');
  // Answers are `no-store` (securityHeaders): an ETag would only cost a hash of every body.
  express.set('etag', false);
  serveJsonAnswers(express.getHttpAdapter().getInstance());
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (default none): otherwise
  // any client could name itself anew on every request and never meet a per-address limit.
  express.set('trust proxy', trustProxy(config));
  express.set('query parser', parseQuery);
  // Before anything else: after SIGTERM every answer closes its connection (graceful-shutdown.ts).
  app.use(app.get(Draining).middleware);
  // First, so that requests refused by the body parser or the input checks are measured too.
  const metrics = app.get(Metrics);
  if (metrics.enabled) app.use(metrics.measureRequests);
  // The id and the headers before the body parsers: an answer a parser refuses (malformed JSON,
  // too large) carries them too.
  app.use(requestId);
  // With read replicas: a player's own writes show in their next reads (src/database/replica-reads.ts).
  const replicas = app.get(ReplicaReads);
  if (replicas.enabled) app.use(replicas.middleware);
  app.use(securityHeaders());
  // Express's own parser, as `useBodyParser` registers it: Nest's options type leaves out `verify`
  // (Nest sets it for `rawBody`, which this app does not use).
  app.use(json({ limit: config.BODY_LIMIT, strict: true, type: JSON_TYPES, verify: utf8Only }));
  // Before the input checks: the console's files take no input (helmet's CSP, which its pages get,
  // fits it: same-origin scripts, styles and API calls only).
  serveConsole(app);
  app.use(checkRequestInput);
  // Management writes (non-GET under /v1/admin) are recorded after their response.
  app.use('/v1/admin', app.get(AuditLogMiddleware).use);
  answerClientErrorsInJson(app.getHttpServer() as Server, config.REQUEST_TIMEOUT_MS);
  applyGlobalPrefix(app);
  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());
  if (options.swagger ?? config.SWAGGER_ENABLED) {
    const document = buildOpenApiDocument(app);
    SwaggerModule.setup('docs', app, document, {
      jsonDocumentUrl: 'docs-json',
      customSiteTitle: 'Community Gaming Service API',
      // No tagsSorter: the document's `tags` order (src/openapi-layout.ts) is the order to show.
      swaggerOptions: SWAGGER_UI_OPTIONS,
    });
  }
  return app;
}

/** JSON bodies: `application/json` and the `+json` types (`application/vnd.api+json`, ...). */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A JSON body is UTF-8 (RFC 8259): another charset (UTF-16, which body-parser would decode) is
 * 415, and bytes that are not valid UTF-8 are 400 rather than read with U+FFFD in their place,
 * which would store something the client never sent.
 */
function utf8Only(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8')
    throw Object.assign(new Error(`unsupported charset "${encoding.toUpperCase()}"`), { status: 415, type: 'charset.unsupported' });
  if (!isUtf8(body))
    throw Object.assign(new Error('The request body is not valid UTF-8'), { status: 400, type: 'entity.encoding.invalid' });
}

/** What Node's own refusals of a request are in the API's terms. */
const CLIENT_ERRORS: Record<string, [ErrorDefinition, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    CommonErrors.headers_too_large,
    'The request line or headers exceed the size limit',
    'Request Header Fields Too Large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [CommonErrors.request_timeout, 'The request was not received in full in time', 'Request Timeout'],
};

/**
 * Node answers malformed requests itself (headers over the size limit: 431; unparsable: 400; not
 * received in full within `requestTimeoutMs`: 408) before Express sees them; answer them in the
 * API's error shape too. A client that stops sending its body would otherwise hold its socket for
 * Node's 300 s default.
 */
function answerClientErrorsInJson(server: Server, requestTimeoutMs: number): void {
  if (!server || typeof server.on !== 'function' || server.listenerCount('clientError') > 0) return;
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, requestTimeoutMs);
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [def, detail, reason] = CLIENT_ERRORS[err.code ?? ''] ?? [
      CommonErrors.generic_client_error,
      'The request is not valid HTTP',
      'Bad Request',
    ];
    const body = JSON.stringify(errorBody(def, detail));
    socket.end(
      `HTTP/1.1 ${def.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
