import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../common/auth/request-context.js';
import { Clock } from '../common/clock/clock.js';
import { AuditLogWriter } from './audit-log.writer.js';
import { auditBody, outcomeOf } from './redact.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ADMIN_ROUTES = '/v1/admin/';

/**
 * Records every management write that reached its route (past the API key guard), successful or
 * not, once its response is sent: the guard names the tenant and the actor on the request, so a
 * request refused by the key check is not recorded and one refused by validation is.
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
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      outcome = outcomeOf(body);
      return json(body);
    };
    // 'close' comes once the response is sent, or when the client went away first.
    res.once('close', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const { tenantId, actor } = req;
      if (typeof route !== 'string' || !route.startsWith(ADMIN_ROUTES) || !tenantId || !actor) return;
      this.writer.record({
        tenantId,
        actor,
        method: req.method,
        route,
        target: { ...(req.params as Record<string, string>) },
        body: auditBody(req.body),
        statusCode: res.statusCode,
        outcome: res.statusCode < 400 ? outcome : null,
        createdAt,
      });
    });
    next();
  };
}
