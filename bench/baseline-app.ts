/**
 * The framework's limit on this machine: a bare NestJS 12 (Express) app with one route that
 * returns a constant. No guard, no pipe, no logger, no database. Started by the bench as a child
 * process: `PORT=... WORKERS=n node dist/bench/baseline-app.js`.
 *
 * With WORKERS > 1 it runs as the service does with WEB_CONCURRENCY (node:cluster, the workers
 * sharing one listening socket), so a ratio compares the same number of processes on each side.
 */
import 'reflect-metadata';
import cluster from 'node:cluster';
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

const workers = Math.max(1, Number(process.env.WORKERS ?? 1));

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('listening', () => {
    if (++listening === workers) process.stdout.write(`baseline listening (${workers} workers)\n`);
  });
  // The bench stops this process; the workers go with it.
  const stop = () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const app = await NestFactory.create(BaselineModule, { logger: false });
  await app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
  if (workers === 1) process.stdout.write('baseline listening\n');
}
