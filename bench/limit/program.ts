/**
 * What every limit program (bench/limit/) shares: a node:http server on 127.0.0.1 that reads the
 * body and hands it to one handler, the JSON answer, and the program's start-up (the service's
 * process count through node:cluster, as WEB_CONCURRENCY does).
 */
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';

export interface Served {
  server: Server;
  close: () => Promise<void>;
}

export function answer(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Serves `route` (method and path) with `handle`; anything else is a 404, a failure a 500. */
export function listen(
  port: number,
  route: { method: string; path: string },
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => Promise<void>,
  onClose: () => Promise<void>,
): Promise<Served> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== route.method || req.url !== route.path) return answer(res, 404, { message: 'not found' });
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e: unknown) =>
        // A body that is not JSON is the client's fault, as the service says it; anything else is the limit's.
        e instanceof SyntaxError ? answer(res, 400, { message: 'generic_client_error' }) : answer(res, 500, { message: String(e) }),
      );
    });
  });
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await onClose();
  };
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, close })));
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
