import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Every request gets an id, echoed in `X-Request-Id` and carried by error bodies and log lines: the
 * caller's own `X-Request-Id` when it is a plain token (letters, digits, `.`, `_`, `-`, up to 64),
 * else a new UUID. Independent of logging, so it holds at every log level.
 */
export function requestId(req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
