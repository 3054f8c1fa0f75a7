import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error.js';
import { CommonErrors } from '../errors/error-catalog.js';
import { assertSafeInput } from './safe-input.js';

const pinQuery = (req: Request, query: unknown) =>
  Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });

/**
 * The one place where what a client sent as a query or a body is checked, right after parsing and
 * before any guard, interceptor, pipe or handler reads it (guards run before pipes and some read
 * the body). The query is parsed once here (`parseQuery` refuses prototype names) and kept: Express
 * 5 would parse it again, and throw again, on every read of `req.query`, logging included. The body
 * goes through `assertSafeInput` (depth, NUL, prototype keys at any depth): `JSON.parse` keeps
 * `"__proto__"` as an own key, which a later assignment-based copy (`Object.assign`,
 * class-transformer) would turn into a prototype change.
 */
export function checkRequestInput(req: Request, _res: Response, next: NextFunction): void {
  let query: unknown;
  try {
    query = req.query;
  } catch (err) {
    pinQuery(req, Object.create(null));
    return next(err);
  }
  pinQuery(req, query);
  // No parser took it (the one body parser reads JSON only): a body of another type (a form,
  // text/plain, XML, multipart, no Content-Type) would otherwise be ignored and the route run as
  // if nothing had been sent.
  if (req.body === undefined && hasBody(req))
    return next(new DomainError(CommonErrors.unsupported_media_type, 'The request body must be JSON (Content-Type: application/json)'));
  try {
    if (req.body !== undefined) assertSafeInput(req.body, 'body');
  } catch (err) {
    return next(err);
  }
  next();
}

/** Whether the request carries a body (a chunked one, or a length above 0), as body-parser decides it. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
