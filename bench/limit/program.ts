/**
 * What every limit program (bench/limit/) shares: a server on 127.0.0.1 that hands the request's
 * headers and JSON body to one handler and writes its answer, and the program's start-up (the
 * service's process count through node:cluster, as WEB_CONCURRENCY does).
 *
 * The server is plain node:http unless `layers` says otherwise: the build-up of the bench
 * (issue 51, the `<path>-via-<layers>` scenarios) adds the service's layers one at a time in front of the same
 * handler, so that each step's cost shows beside the limit:
 * - `express`: an Express app, `express.json()` and a route;
 * - `nest`: a NestJS app (Express adapter, its body parser and router) with one controller;
 * - `nest-validated`: the same with the service's ValidationPipe, the route's DTO and the
 *   service's exception filter.
 */
import cluster from 'node:cluster';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface Served {
  server: Server;
  close: () => Promise<void>;
}

/** What a handler answers: the status and the JSON body. */
export interface Answer {
  status: number;
  body: object;
}

export const LAYERS = ['http', 'express', 'nest', 'nest-validated'] as const;
export type Layers = (typeof LAYERS)[number];

export interface Route {
  method: 'POST';
  /** The path as Express and Nest write it (`:name` for a parameter). */
  path: string;
  /** Whether a request path is this route's, for node:http (default: equal to `path`). */
  matches?: (path: string) => boolean;
  /** The service's DTO of the body, for `nest-validated` (a class from dist/src). */
  dto?: () => Promise<new () => object>;
}

export type Handler = (headers: IncomingHttpHeaders, body: unknown, path: string) => Promise<Answer>;

export const answerOf = (status: number, body: object): Answer => ({ status, body });

function write(res: ServerResponse, a: Answer): void {
  const text = JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A failure of the handler: the limit's own fault (500). */
const failed = (e: unknown): Answer => answerOf(500, { message: String(e) });

/** Serves `route` with `handle` behind `layers`; anything else is a 404, a body that is not JSON a 400. */
export async function listen(
  port: number,
  route: Route,
  handle: Handler,
  onClose: () => Promise<void>,
  layers: Layers = 'http',
): Promise<Served> {
  const { server, stop } = layers === 'http' ? plainServer(route, handle) : await layeredServer(route, handle, layers);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const close = async () => {
    await stop();
    await onClose();
  };
  return { server, close };
}

function plainServer(route: Route, handle: Handler): { server: Server; stop: () => Promise<void> } {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method !== route.method || !(route.matches ? route.matches(path) : path === route.path))
        return write(res, answerOf(404, { message: 'not found' }));
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // A body that is not JSON is the client's fault, as the service says it.
        return write(res, answerOf(400, { message: 'generic_client_error' }));
      }
      handle(req.headers, body, path).then(
        (a) => write(res, a),
        (e: unknown) => write(res, failed(e)),
      );
    });
  });
  return { server, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function layeredServer(
  route: Route,
  handle: Handler,
  layers: Exclude<Layers, 'http'>,
): Promise<{ server: Server; stop: () => Promise<void> }> {
  if (layers === 'express') {
    const { default: express } = await import('express');
    const app = express();
    app.use(express.json());
    app.post(route.path, (req, res) => {
      handle(req.headers, req.body, req.path).then(
        (a) => res.status(a.status).json(a.body),
        (e: unknown) => res.status(500).json(failed(e).body),
      );
    });
    // express.json()'s refusal of a body that is not JSON, in the service's words.
    app.use((_err: unknown, _req: unknown, res: { status: (s: number) => { json: (b: object) => void } }, _next: unknown) =>
      res.status(400).json({ message: 'generic_client_error' }),
    );
    const server = createServer(app);
    return { server, stop: () => new Promise((resolve) => server.close(() => resolve())) };
  }
  const { nestServer } = await import('./nest-layers.js');
  return nestServer(route, handle, layers === 'nest-validated');
}

/** The port a served limit listens on. */
export const portOf = (s: Served): number => (s.server.address() as AddressInfo).port;

/** LAYERS from the environment: one of `LAYERS`, `http` when unset. */
export function layersFrom(env: NodeJS.ProcessEnv): Layers {
  const l = env.LAYERS ?? 'http';
  if (!(LAYERS as readonly string[]).includes(l)) throw new Error(`LAYERS must be one of ${LAYERS.join(', ')}`);
  return l as Layers;
}

/**
 * When `moduleUrl` is the program node was started with: WORKERS processes (forked when more than
 * one), each running `start` with the environment; prints "limit listening" once all listen.
 */
export async function runAsProgram(moduleUrl: string, start: (env: NodeJS.ProcessEnv) => Promise<unknown>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const workers = Math.max(1, Number(process.env.WORKERS ?? 1));
  if (workers > 1 && cluster.isPrimary) {
    let listening = 0;
    for (let i = 0; i < workers; i++) cluster.fork();
    cluster.on('listening', () => {
      if (++listening === workers) process.stdout.write(`limit listening (${workers} workers)\n`);
    });
    const stop = () => {
      for (const w of Object.values(cluster.workers ?? {})) w?.kill();
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }
  await start(process.env);
  if (workers === 1) process.stdout.write('limit listening\n');
}
