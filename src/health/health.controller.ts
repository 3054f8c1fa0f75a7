import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, type HealthIndicatorResult } from '@nestjs/terminus';
import { Infrastructure } from '../common/auth/auth.decorators.js';
import { ErrorBodyDto } from '../common/errors/error-body.dto.js';
import { Draining } from '../common/lifecycle/draining.js';
import { prototypePollution } from '../common/security/prototypes.js';
import { DatabaseHealthIndicator } from './database.health.js';

@ApiTags('Health')
@Controller('health')
@Infrastructure()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: DatabaseHealthIndicator,
    private readonly draining: Draining,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process is up' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database answers, the process is not poisoned and not shutting down' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  @ApiServiceUnavailableResponse({
    type: ErrorBodyDto,
    description:
      '`service_unavailable` (10503): the database does not answer, `Object.prototype` was written to, or the process is shutting down (SIGTERM: it finishes what is in flight and exits).',
  })
  ready(): Promise<HealthCheckResult> {
    // Draining first: a process that is shutting down is not ready whatever its database says.
    return this.health.check([() => drainingCheck(this.draining), () => this.db.isHealthy('database'), prototypesCheck]);
  }
}

/**
 * A process whose shared prototypes were written to (prototype pollution) fails requests of every
 * tenant until it restarts: not ready, so an orchestrator restarts it.
 */
function prototypesCheck(): HealthIndicatorResult<'prototypes'> {
  const polluted = prototypePollution();
  return { prototypes: polluted.length === 0 ? { status: 'up' } : { status: 'down', polluted: polluted.slice(0, 10) } };
}

/** A process that received SIGTERM takes no new work: not ready, so a load balancer sends it none. */
function drainingCheck(draining: Draining): HealthIndicatorResult<'shutdown'> {
  return { shutdown: draining.active ? { status: 'down', draining: true } : { status: 'up' } };
}
