import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { setupApp } from '../../src/app.setup.js';
import { Clock } from '../../src/common/clock/clock.js';
import { CacheBus } from '../../src/database/cache-bus.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import { TenantsService, type TenantCredentials } from '../../src/tenants/tenants.service.js';
import { tenantInput } from '../factories/inputs.js';
import { createTestDatabase } from '../setup/test-database.js';
import { FakeClock } from './fake-clock.js';
import { until } from './until.js';

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  clock: FakeClock;
  dataSource: DataSource;
  databaseName: string;
  config: AppConfig;
  close: () => Promise<void>;
  /** A new tenant with its one-time credentials. */
  givenTenant: (slug?: string) => Promise<TenantCredentials>;
}

/**
 * The real application (same `setupApp` as `bootstrap.ts`) on a fresh database with all migrations
 * applied (MIGRATIONS_RUN, as in production), and a clock the test controls.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { swagger?: boolean; emptyDatabase?: boolean } = {},
): Promise<TestApp> {
  // A copy of the run's migrated template (the app finds nothing to migrate), or with
  // `emptyDatabase` a database without any schema: the app's start-up runs every migration.
  const db = await createTestDatabase({ empty: options.emptyDatabase ?? false });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    PASSWORD_SCRYPT_COST: '1024',
    DB_POOL_SIZE: '5',
    // CGS_TEST_REDIS_URL=redis://...: the same suites with the Redis-backed stores (ranks, rate limits).
    ...(process.env.CGS_TEST_REDIS_URL ? { REDIS_URL: process.env.CGS_TEST_REDIS_URL } : {}),
    ...env,
  });
  const clock = new FakeClock();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication({ bufferLogs: false, bodyParser: false });
  setupApp(app, { swagger: options.swagger ?? false });
  await app.init();
  const tenants = app.get(TenantsService);
  return {
    app,
    http: () => request(app.getHttpServer()),
    clock,
    dataSource: app.get<DataSource>(getDataSourceToken()),
    databaseName: db.name,
    config,
    givenTenant: (slug) => tenants.create(slug ? { slug } : tenantInput()),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * The shared e2e header in one call: a TestApp made before the file's tests (`beforeAll`), closed
 * after them, and with `resetClock` its clock put back after each test. The handle it returns reads
 * through to that app, so a describe block can use it in its own hooks and helpers.
 */
export function useTestApp(
  env: Record<string, string> = {},
  options: { swagger?: boolean; emptyDatabase?: boolean; resetClock?: boolean } = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(env, options);
  });
  afterAll(() => current?.close());
  if (options.resetClock) afterEach(() => current?.clock.reset());
  return new Proxy({} as TestApp, {
    get: (_, key: keyof TestApp) => {
      if (!current) throw new Error(`useTestApp: "${String(key)}" read before its beforeAll made the app`);
      return current[key];
    },
  });
}

/**
 * Two instances of the application on one database (the second on the first's), both listening on
 * the cache bus before the test writes (its LISTEN connection starts at bootstrap).
 */
export async function createTwoTestApps(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
  const a = await createTestApp(env);
  const b = await createTestApp({ ...env, DATABASE_URL: a.config.DATABASE_URL! });
  await until(
    async () => a.app.get(CacheBus).listening && b.app.get(CacheBus).listening,
    (v) => v,
  );
  return [a, b];
}
