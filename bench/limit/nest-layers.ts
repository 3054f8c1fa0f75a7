/**
 * The NestJS steps of the limits' build-up (bench/limit/program.ts): one controller, made for the
 * route at run time, in a Nest app on the Express adapter, with its default body parser and
 * router; with `validated`, the service's ValidationPipe and the route's DTO as the service's
 * controller declares them, and the service's exception filter. No guard, interceptor, middleware or logger.
 */
import 'reflect-metadata';
import { Body, Controller, Module, Post, Req, Res, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { Handler, Route } from './program.js';

export async function nestServer(
  route: Route,
  handle: Handler,
  validated: boolean,
): Promise<{ server: Server; stop: () => Promise<void> }> {
  const dto: Type = validated && route.dto ? await route.dto() : Object;
  @Controller()
  class LimitController {
    @Post(route.path.slice(1))
    async serve(
      @Req() req: { headers: IncomingHttpHeaders; path: string },
      @Body() body: object,
      @Res({ passthrough: true }) res: { status: (s: number) => void },
    ): Promise<object> {
      const a = await handle(req.headers, body, req.path);
      res.status(a.status);
      return a.body;
    }
  }
  // What TypeScript emits for a decorated method whose body parameter has the DTO's type.
  Reflect.defineMetadata('design:paramtypes', [Object, dto, Object], LimitController.prototype, 'serve');

  @Module({ controllers: [LimitController] })
  class LimitModule {}

  const app = await NestFactory.create(LimitModule, { logger: false });
  if (validated) {
    const { validationPipe } = await import('../../src/app.setup.js');
    const { AllExceptionsFilter } = await import('../../src/common/errors/all-exceptions.filter.js');
    app.useGlobalPipes(validationPipe);
    // Its refusals are domain errors, which the service's filter answers 400.
    app.useGlobalFilters(new AllExceptionsFilter());
  }
  await app.init();
  return { server: app.getHttpServer() as Server, stop: () => app.close() };
}
