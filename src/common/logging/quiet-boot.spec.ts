import type { LoggerService } from '@nestjs/common';
import { quietBoot } from './quiet-boot.js';

describe('quietBoot', () => {
  const record = () => {
    const lines: string[] = [];
    const at = (level: string) => (message: unknown, context?: unknown) => lines.push(`${level} ${String(context)}: ${String(message)}`);
    const logger: LoggerService = {
      log: at('log'),
      error: at('error'),
      warn: at('warn'),
      debug: at('debug'),
      verbose: at('verbose'),
      fatal: at('fatal'),
    };
    return { lines, logger: quietBoot(logger) };
  };

  it("moves Nest's start-up lines to debug and leaves every other line where it was", () => {
    const { lines, logger } = record();
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/v1/community/:id, GET} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('no DATABASE_URL: starting embedded PostgreSQL', 'Database');
    logger.warn('generated session_secret', 'SecretsService');
    logger.error('InstanceLoader failed', 'InstanceLoader');
    expect(lines).toEqual([
      'debug InstanceLoader: AppModule dependencies initialized',
      'debug RouterExplorer: Mapped {/v1/community/:id, GET} route',
      'debug NestApplication: Nest application successfully started',
      'log Database: no DATABASE_URL: starting embedded PostgreSQL',
      'warn SecretsService: generated session_secret',
      'error InstanceLoader: InstanceLoader failed',
    ]);
  });
});
