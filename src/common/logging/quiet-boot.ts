import type { LoggerService } from '@nestjs/common';

/**
 * What Nest says while it starts: a line per module initialised, per controller and per route
 * mapped (about 240 lines), which buried the banner. They are kept at `debug`.
 */
const BOOT_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

const isBoot = (params: unknown[]) => {
  const context = params.at(-1);
  return typeof context === 'string' && BOOT_CONTEXTS.has(context);
};

/** `logger`, with Nest's start-up chatter at `debug` (shown with LOG_LEVEL=debug). */
export function quietBoot(logger: LoggerService): LoggerService {
  return {
    log: (message: unknown, ...params: unknown[]): void =>
      void (isBoot(params) ? logger.debug?.(message, ...params) : logger.log(message, ...params)),
    error: (message: unknown, ...params: unknown[]): void => void logger.error(message, ...params),
    warn: (message: unknown, ...params: unknown[]): void => void logger.warn(message, ...params),
    debug: (message: unknown, ...params: unknown[]): void => void logger.debug?.(message, ...params),
    verbose: (message: unknown, ...params: unknown[]): void => void logger.verbose?.(message, ...params),
    fatal: (message: unknown, ...params: unknown[]): void => void logger.fatal?.(message, ...params),
  };
}
