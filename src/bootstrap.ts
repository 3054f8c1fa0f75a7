import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { setupApp } from './app.setup.js';
import { AppConfig } from './config/app-config.js';
import { consoleBuilt } from './common/console/serve-console.js';
import { installGracefulShutdown } from './common/lifecycle/graceful-shutdown.js';
import { hardenPrototypes } from './common/security/prototypes.js';
import { DEMO, renderDemoSummary, seedDemo } from './seed/demo-seed.js';
import { TenantsService } from './tenants/tenants.service.js';

/** One HTTP server process: the whole service, or one worker of a cluster (src/main.ts). */
export async function bootstrap(): Promise<void> {
  // setupApp registers the one body parser (JSON); Nest's defaults would add a form parser.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false });
  setupApp(app);
  const config = app.get(AppConfig);

  const tenants = app.get(TenantsService);
  // A fresh embedded database (the first `npm start` of a clone) gets the demo tenant instead of an
  // empty `default` one. It is seeded right after the server starts listening, so /docs is up at once.
  const seedDemoTenant = config.STARTUP_TASKS && !config.DATABASE_URL && (await tenants.count()) === 0;
  let hint = '';
  if (config.STARTUP_TASKS && !seedDemoTenant) {
    await tenants.ensureDefaultTenant((t) => {
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
    if (!config.DATABASE_URL && (await tenants.findByRef(DEMO.tenant))) {
      hint = `  Demo:       tenant "${DEMO.tenant}", log in as ${DEMO.users[0]} / ${DEMO.password} (npm run seed prints the rest)\n`;
    }
  }

  // DEFAULT_TENANT must name a tenant; a fresh embedded database gets its only one, the demo, after listening.
  if (config.STARTUP_TASKS) await tenants.checkDefaultTenant(seedDemoTenant ? [DEMO.tenant] : []);

  await app.init();
  hardenPrototypes(); // once everything is loaded, before the first request (src/common/security/prototypes.ts)
  await app.listen(config.PORT, config.HOST);
  const logger = new Logger('Shutdown');
  installGracefulShutdown(app, { graceMs: config.SHUTDOWN_GRACE_MS, delayMs: config.SHUTDOWN_DELAY_MS, log: (line) => logger.warn(line) });
  if (!config.STARTUP_TASKS) return; // a cluster worker after the first: the first one speaks
  const base = baseUrl(config);
  const docs = config.SWAGGER_ENABLED ? `  Swagger UI: ${base}/docs\n  OpenAPI:    ${base}/docs-json\n` : '';
  const operatorConsole = consoleBuilt() ? `  Console:    ${base}/console/  (sign in with the tenant's API key)\n` : '';
  process.stdout.write(
    `\nCommunity Gaming Service is listening on ${base}\n${docs}${operatorConsole}  Health:     ${base}/health/ready\n${hint}  Ready ${process.uptime().toFixed(1)} s after the process started (Node ${process.versions.node})\n\n`,
  );

  if (seedDemoTenant) {
    try {
      const summary = await seedDemo(app, { log: (line) => process.stdout.write(`${line}\n`) });
      process.stdout.write(`${renderDemoSummary(summary, base)}\n`);
    } catch (err) {
      process.stderr.write(
        `Seeding the demo tenant failed (the service keeps running; \`npm run seed\` tries again): ${err instanceof Error ? err.message : String(err)}\n`,
      );
    }
  }
}

function baseUrl(config: AppConfig): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${host}:${config.PORT}`;
}
