import { LoggerModule, type Params } from 'nestjs-pino';
import { AppConfig } from '../../config/app-config.js';
import { redactQueryObject, redactQueryString } from '../security/secret-names.js';

/** Levels at which a line per request is written. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

/** Human-readable lines for a developer at a terminal; JSON for everything that collects logs. */
export const prettyLogs = (config: Pick<AppConfig, 'NODE_ENV'>, stdout: { isTTY?: boolean } = process.stdout): boolean =>
  stdout.isTTY === true && config.NODE_ENV !== 'production';

/**
 * Structured JSON logs (pino). At `info` and below, one line per request (with the request id set
 * by `requestId`); above `info` those lines would all be dropped, so the per-request logging
 * middleware is not mounted at all (its cost showed in the profile of a small authenticated request).
 * In a terminal outside production the same lines go through pino-pretty (loaded only then), in
 * process and synchronously, so a crash's last lines are not lost in a buffer.
 */
export const LoggingModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: async (config: AppConfig): Promise<Params> => {
    const options = {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      // Credentials in a query string (`?token=`, `?apiKey=`) as the headers above: the values are replaced.
      serializers: { req: redactRequestLine },
      autoLogging: { ignore: (req: { url?: string }) => req.url === '/health' },
    };
    const routes = REQUEST_LOG_LEVELS.has(config.LOG_LEVEL) ? {} : { forRoutes: [] };
    if (!prettyLogs(config)) return { pinoHttp: options, ...routes };
    const { default: pretty } = await import('pino-pretty');
    const stream = pretty({
      colorize: true,
      sync: true,
      // One line per request (`GET /v1/x 404 3 ms`); the full req/res objects are the JSON logs' business.
      messageFormat: '{if context}[{context}] {end}{if req.method}{req.method} {req.url} {res.statusCode} {responseTime} ms: {end}{msg}',
      ignore: 'pid,hostname,context,req,res,responseTime',
    });
    return { pinoHttp: [options, stream], ...routes };
  },
});

/** The serialized request of a log line, its URL and query without credentials. */
export function redactRequestLine<T extends { url?: unknown; query?: unknown }>(req: T): T {
  if (typeof req.url === 'string') req.url = redactQueryString(req.url);
  if (req.query) req.query = redactQueryObject(req.query);
  return req;
}
