import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../common/auth/request-context.js';
import { Clock } from '../common/clock/clock.js';
import { AuditLogWriter } from './audit-log.writer.js';
import { auditBody, outcomeOf, storableEntry } from './redact.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ADMIN_ROUTES = '/v1/admin/';

/**
 * Records every management write that reached its route (past the API key guard), successful or
 * not, once its response has ended: the guard names the tenant and the actor on the request, so a
 * request refused by the key check is not recorded and one refused by validation is.
 *
 * A client that goes away does not stop the request: the guard and the handler still run and the
 * change may be applied. So the entry is taken when the response is ended (`res.end`) and its
 * status is the one it was ended with, never what `res.statusCode` held when the socket closed
 * (before the guard ran, or the handler's default before it failed). `aborted` says the client
 * left before the whole answer was sent.
 *
 * Express middleware on `/v1/admin`, not a Nest interceptor: a global interceptor makes Nest
 * defer every handler into an Observable, and a Server-Sent Events handler that refuses after an
 * await (the notification stream's Last-Event-ID check) would then answer 200 and an error event
 * instead of its error body.
 */
@Injectable()
export class AuditLogMiddleware {
  constructor(
    private readonly writer: AuditLogWriter,
    private readonly clock: Clock,
  ) {}

  readonly use = (request: Request, res: Response, next: NextFunction): void => {
    const req = request as AuthenticatedRequest;
    if (READS.has(req.method)) return next();
    const createdAt = this.clock.now();
    let outcome: string | null = null;
    let ended = false;
    let closed = false;
    let recorded = false;
    const record = (aborted: boolean) => {
      if (recorded) return;
      recorded = true;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const { tenantId, actor } = req;
      if (typeof route !== 'string' || !route.startsWith(ADMIN_ROUTES) || !tenantId || !actor) return;
      // Storable here, where client text comes in: a NUL in a path value (refused with 400 after
      // the key check, so recorded) would otherwise fail its whole batch.
      const entry = storableEntry({
        tenantId,
        actor,
        method: req.method,
        route,
        target: { ...(req.params as Record<string, string>) },
        body: auditBody(req.body),
        statusCode: res.statusCode,
        outcome: res.statusCode < 400 ? outcome : null,
        aborted,
        createdAt,
      });
      this.writer.record({ ...entry, requestId: (req as { id?: string }).id });
    };
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      outcome = outcomeOf(body);
      return json(body);
    };
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      ended = true;
      const result = end(...args);
      // The client left first: no 'close' follows, the entry is taken now.
      if (closed) record(true);
      return result;
    }) as Response['end'];
    // 'close' comes once the response is sent, or when the client went away first; in that case
    // the request goes on and is recorded when its response is ended.
    res.once('close', () => {
      closed = true;
      if (ended) record(!res.writableFinished);
    });
    next();
  };
}
