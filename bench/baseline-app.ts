/**
 * The framework's limit on this machine: a bare NestJS 12 (Express) app with one route that
 * returns a constant. No guard, no pipe, no logger, no database. Started by the bench as a child
 * process: `PORT=... node dist/bench/baseline-app.js`.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class ConstantController {
  @Get('constant')
  constant(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [ConstantController] })
class BaselineModule {}

const app = await NestFactory.create(BaselineModule, { logger: false });
await app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
process.stdout.write('baseline listening\n');
