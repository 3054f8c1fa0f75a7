import { Controller, Get, Headers, NotFoundException, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Infrastructure } from '../common/auth/auth.decorators.js';
import { Metrics } from './metrics.js';

/**
 * `GET /metrics` for Prometheus: outside `/v1` and the published document (it is for the operator,
 * not for clients), answered only when METRICS_TOKEN is set and only to `Authorization: Bearer
 * <METRICS_TOKEN>`. Anything else gets the 404 of an unknown path, so the route does not show.
 */
@ApiExcludeController()
@Controller('metrics')
@Infrastructure()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.metrics.authorized(authorization)) throw new NotFoundException('Cannot GET /metrics');
    const text = await this.metrics.scrape();
    // Set here, not with @Header: that would also mark the 404's JSON body as Prometheus text.
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return text;
  }
}
