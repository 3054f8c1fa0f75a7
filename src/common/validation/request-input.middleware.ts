import type { Express, NextFunction, Request, Response } from 'express';
import { assertSafeInput } from './safe-input.js';

const PARSED = Symbol('parsed query');
type Parsed = Request & { [PARSED]?: unknown };

/**
 * Makes `req.query` of the app's requests parsed once and kept: Express 5 parses it again, and
 * throws again, on every read, logging included. Installed once on the app's request prototype
 * (pinning the value on each request with `Object.defineProperty` cost a share of every small
 * read: docs/performance.md); an assignment replaces the value, as in Express.
 */
export function parseQueryOnce(app: Express): void {
  let owner: object | null = app.request;
  let parse: ((this: Request) => unknown) | undefined;
  while (owner && !parse) {
    const descriptor = Object.getOwnPropertyDescriptor(owner, 'query');
    // eslint-disable-next-line @typescript-eslint/unbound-method -- Express's getter, called below with the request as `this`
    parse = descriptor?.get as ((this: Request) => unknown) | undefined;
    owner = Object.getPrototypeOf(owner) as object | null;
  }
  if (!parse) throw new Error("Express's request has no query getter to wrap");
  const parseOf = parse;
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Parsed): unknown {
      if (!(PARSED in this)) this[PARSED] = parseOf.call(this);
      return this[PARSED];
    },
    set(this: Parsed, value: unknown) {
      this[PARSED] = value;
    },
  });
}

/**
 * The one place where what a client sent as a query or a body is checked, right after parsing and
 * before any guard, interceptor, pipe or handler reads it (guards run before pipes and some read
 * the body). The query is parsed here (`parseQuery` refuses prototype names) and kept
 * (`parseQueryOnce`); a refused one is replaced by an empty one, so the error's own handling can
 * read it. The body goes through `assertSafeInput` (depth, NUL, prototype keys at any depth):
 * `JSON.parse` keeps `"__proto__"` as an own key, which a later assignment-based copy
 * (`Object.assign`, class-transformer) would turn into a prototype change.
 */
export function checkRequestInput(req: Request, _res: Response, next: NextFunction): void {
  try {
    void req.query;
  } catch (err) {
    (req as { query: unknown }).query = Object.create(null);
    return next(err);
  }
  try {
    if (req.body !== undefined) assertSafeInput(req.body, 'body');
  } catch (err) {
    return next(err);
  }
  next();
}
