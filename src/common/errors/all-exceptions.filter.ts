import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sessionUserGone } from '../auth/session-user-gone.js';
import { DomainError } from './domain-error.js';
import { CommonErrors, type ErrorDefinition } from './error-catalog.js';
import { isWriteConflict } from './write-conflict.js';

const byStatus: Record<number, ErrorDefinition> = {
  400: CommonErrors.generic_client_error,
  401: CommonErrors.GENERIC_UNAUTHORIZED,
  403: CommonErrors.forbidden,
  404: CommonErrors.not_found,
  405: CommonErrors.not_found,
  409: CommonErrors.conflict,
  413: CommonErrors.payload_too_large,
  415: CommonErrors.unsupported_media_type,
  429: CommonErrors.too_many_requests,
  503: CommonErrors.service_unavailable,
};

/**
 * PostgreSQL SQLSTATE classes and socket errors that mean "the database is not there"; 25006 (a
 * write refused as read-only) is a primary demoted by a failover, until the pool reaches the new one.
 */
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; name?: string; driverError?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  // TypeORM releases a transaction's query runner when its connection dies (the server stopped
  // mid-transaction); the transaction's next query then throws this instead of a socket error.
  if (
    e.name === 'QueryRunnerProviderAlreadyReleasedError' ||
    e.name === 'QueryRunnerAlreadyReleasedError' ||
    e.name === 'TransactionNotStartedError'
  )
    return true;
  const code = e.code ?? (e.driverError as { code?: string } | undefined)?.code;
  if (
    code &&
    (/^(08|57P|53300|3D000|25006)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code))
  ) {
    return true;
  }
  const msg = e.message ?? '';
  return /Connection terminated|Client was closed and is not queryable|Cannot use a pool after calling end|not currently accepting connections|too many clients|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    msg,
  );
}

/**
 * The database answered too late: a lock wait past `lock_timeout` (55P03), a statement past
 * `statement_timeout` (57014), or no answer within the client's read timeout. Nothing was applied
 * (the statement, and so its transaction, failed) and the same request may be retried.
 */
function isDatabaseTimeout(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: { code?: string; message?: string } } | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = e.code ?? e.driverError?.code;
  return code === '55P03' || code === '57014' || /^Query read timeout/.test(e.driverError?.message ?? e.message ?? '');
}

function isUnstorableValue(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } } | undefined;
  const code = e?.code ?? e?.driverError?.code;
  return code === '22021' || code === '22P05';
}

/**
 * A date or time beyond what PostgreSQL stores (22008 datetime_field_overflow, e.g. before 4713 BC),
 * or one JavaScript could not hold, which reaches PostgreSQL as "Invalid Date" (22007
 * invalid_datetime_format). The date decorators refuse such input first; this keeps any other way
 * in a 400, not a 500.
 */
function isDateOutOfRange(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } } | undefined;
  const code = e?.code ?? e?.driverError?.code;
  return code === '22008' || code === '22007';
}

/** The checks a failed readiness probe names (@nestjs/terminus answers `{status, error: {<check>: ...}}`). */
function failedHealthChecks(ex: HttpException): string[] {
  const error = (ex.getResponse() as { error?: unknown } | undefined)?.error;
  return error && typeof error === 'object' ? Object.keys(error) : [];
}

function httpExceptionMessage(ex: HttpException): string {
  const r = ex.getResponse();
  if (typeof r === 'string') return r;
  const m = (r as { message?: unknown }).message;
  if (Array.isArray(m)) return m.join('; ');
  if (typeof m === 'string') return m;
  return ex.message;
}

/**
 * Turns every error, from every layer, into `{code, message, error, detail, requestId}` with the
 * right HTTP status (see error-catalog.ts for what each field carries). 5xx bodies never carry
 * internals; the details go to the log.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    exception = sessionUserGone(exception, (req as Request & { user?: { id?: string } }).user?.id) ?? exception;
    const requestId = (req as Request & { id?: string }).id;

    let def: ErrorDefinition;
    let detail: string;
    let details: Record<string, unknown> | undefined;

    if (exception instanceof DomainError) {
      def = exception.definition;
      detail = exception.message;
      details = exception.details;
    } else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      def = byStatus[status] ?? (status >= 500 ? CommonErrors.internal_error : CommonErrors.generic_client_error);
      const cause = (exception as { cause?: unknown }).cause;
      if (isBodyParserError(cause)) def = bodyParserDefinition(cause, def);
      else if (status === 400 && cause instanceof SyntaxError) def = CommonErrors.invalid_json;
      if (status === 404 && /^Cannot /.test(exception.message)) detail = `No route ${req.method} ${req.originalUrl.split('?')[0]}`;
      else if (status === 503 && failedHealthChecks(exception).length)
        detail = `Not ready: ${failedHealthChecks(exception).join(', ')} down`;
      else if (status >= 500) detail = def.description;
      else if (isBodyParserError(cause)) detail = bodyParserDetail(cause, def);
      else if (status === 400 && cause instanceof SyntaxError) detail = 'The request body is not valid JSON';
      else if (status === 413) detail = 'The request body exceeds the size limit';
      else detail = httpExceptionMessage(exception);
    } else if (isBodyParserError(exception)) {
      def = bodyParserDefinition(exception, byStatus[exception.status ?? 400] ?? CommonErrors.generic_client_error);
      detail = bodyParserDetail(exception, def);
    } else if (isUnstorableValue(exception)) {
      def = CommonErrors.generic_client_error;
      detail = 'A value contains a character that cannot be stored';
    } else if (isDateOutOfRange(exception)) {
      def = CommonErrors.generic_client_error;
      detail = 'A date or time is outside the range that can be stored';
    } else if (isWriteConflict(exception)) {
      def = CommonErrors.write_conflict;
      detail = def.description;
      this.logger.warn({ err: exception, requestId }, 'write conflict');
    } else if (isDatabaseTimeout(exception)) {
      def = CommonErrors.database_timeout;
      detail = def.description;
      this.logger.warn({ err: exception, requestId }, 'database timeout');
    } else if (isDatabaseUnavailable(exception)) {
      def = CommonErrors.service_unavailable;
      detail = def.description;
      this.logger.warn({ err: exception, requestId }, 'database unavailable');
    } else {
      def = CommonErrors.internal_error;
      detail = def.description;
      this.logger.error({ err: exception, requestId }, 'unhandled error');
    }

    if (res.headersSent) return;
    if (def.status === 503) res.setHeader('Retry-After', '1');
    res.status(def.status).json(errorBody(def, detail, details, requestId));
  }
}

/** The one error body shape (also written by hand where Node answers before Express, see app.setup.ts). */
export function errorBody(
  def: ErrorDefinition,
  detail: string,
  details?: Record<string, unknown>,
  requestId?: string,
): Record<string, unknown> {
  return {
    code: def.code,
    message: def.message,
    error: def.error,
    detail,
    ...(details ? { details } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** Unparsable JSON is its own case; every other body-parser failure keeps its status's definition. */
function bodyParserDefinition(e: BodyParserError, def: ErrorDefinition): ErrorDefinition {
  return e.type === 'entity.parse.failed' || e.type === 'entity.encoding.invalid' ? CommonErrors.invalid_json : def;
}

function bodyParserDetail(e: BodyParserError, def: ErrorDefinition): string {
  switch (e.type) {
    case 'entity.parse.failed':
      return 'The request body is not valid JSON';
    case 'entity.encoding.invalid':
      return 'The request body is not valid UTF-8';
    case 'entity.too.large':
      return `The request body exceeds the limit of ${e.limit} bytes`;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'Unsupported body encoding';
    default:
      return def.description;
  }
}

interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
}
function isBodyParserError(e: unknown): e is BodyParserError {
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as BodyParserError).type === 'string' &&
    typeof (e as BodyParserError).status === 'number' &&
    (e as BodyParserError).type.includes('.')
  );
}
