import { Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NextFunction, Request, Response } from 'express';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

/**
 * Nest answers an unknown path under the `/v1` prefix (and a wrong method on `/health`) through the
 * exception filter, but any other path (`/`, `/foo`, `POST /docs/x`) fell through every layer to
 * Express's final handler, an HTML page. This adds the last layer, after Nest's routes and 404
 * handler (`onApplicationBootstrap` runs after both are registered), and answers such a path with
 * the same 404 body as `/v1`.
 */
@Injectable()
export class UnknownPathFallback implements OnApplicationBootstrap {
  private readonly filter = new AllExceptionsFilter();

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    // No HTTP adapter in a CLI application context.
    this.adapterHost.httpAdapter?.use((req: Request, res: Response, next: NextFunction) => {
      this.filter.catch(new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`), new ExecutionContextHost([req, res, next]));
    });
  }
}
