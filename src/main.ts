import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { setupApp } from './app.setup.js';
import { AppConfig } from './config/app-config.js';
import { TenantsService } from './tenants/tenants.service.js';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true });
  setupApp(app);
  app.enableShutdownHooks();
  const config = app.get(AppConfig);

  await app.get(TenantsService).ensureDefaultTenant((t) => {
    process.stdout.write(
      [
        '',
        'Created the default tenant (shown once; store these now):',
        `  tenant id:     ${t.id}  (slug "${t.slug}")`,
        `  API key:       ${t.apiKey}`,
        `  shared secret: ${t.sharedSecret}`,
        '',
      ].join('\n') + '\n',
    );
  });

  await app.listen(config.PORT, config.HOST);
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = `http://${host}:${config.PORT}`;
  process.stdout.write(`\nCommunity Gaming Service is listening on ${base}\n  Swagger UI: ${base}/docs\n  OpenAPI:    ${base}/docs-json\n  Health:     ${base}/health/ready\n\n`);
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
