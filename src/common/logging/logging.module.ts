import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../../config/app-config.js';

/** Levels at which a line per request is written. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

/**
 * Structured JSON logs (pino). At `info` and below, one line per request (with the request id set
 * by `requestId`); above `info` those lines would all be dropped, so the per-request logging
 * middleware is not mounted at all (its cost showed in the profile of a small authenticated request).
 */
export const LoggingModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    pinoHttp: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      autoLogging: { ignore: (req) => req.url === '/health' },
    },
    ...(REQUEST_LOG_LEVELS.has(config.LOG_LEVEL) ? {} : { forRoutes: [] }),
  }),
});
