import 'reflect-metadata';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { appEntities } from '../../src/app.entities.js';
import { Clock } from '../../src/common/clock/clock.js';
import { CommonModule } from '../../src/common/common.module.js';
import { LoggingModule } from '../../src/common/logging/logging.module.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { CryptoModule } from '../../src/crypto/crypto.module.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { ObservabilityModule } from '../../src/observability/observability.module.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createTestDatabase } from '../setup/test-database.js';

type Import = Type<unknown> | DynamicModule | Promise<DynamicModule> | ForwardReference;

export interface ModuleTestOptions {
  /** The modules under test (each imports what it needs: no domain module is global). */
  imports: Import[];
  /** Extra providers of the testing module (e.g. a stand-in for an outside service). */
  providers?: Provider[];
  /** Configuration on top of the test defaults (same variables as the service's environment). */
  env?: Record<string, string>;
  /** The clock every service reads; a FakeClock starting at the real time by default. */
  clock?: FakeClock;
}

export interface ModuleTest {
  /** A provider of the modules under test (or of the infrastructure modules). */
  get: <T>(token: Type<T> | string | symbol) => T;
  dataSource: DataSource;
  clock: FakeClock;
  config: AppConfig;
  /** The test's database (a copy of the run's migrated template). */
  databaseName: string;
  moduleRef: TestingModule;
  /** Closes the module (its pool first) and drops the database. */
  close: () => Promise<void>;
}

/**
 * A "medium" test: the modules under test, wired as in the app, with the infrastructure modules
 * the app starts with (configuration, logging, the database pool, the common providers), on a
 * database of their own copied from the run's migrated template: real SQL, real transactions,
 * no HTTP and none of the other domain modules. A service is called directly; what it wrote is
 * read back from the database.
 */
export async function createModuleTest(options: ModuleTestOptions): Promise<ModuleTest> {
  const db = await createTestDatabase();
  const clock = options.clock ?? new FakeClock();
  let moduleRef: TestingModule | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      PASSWORD_SCRYPT_COST: '1024',
      DB_POOL_SIZE: '5',
      // The template is migrated already; the migrations themselves are tested in the e2e suite.
      MIGRATIONS_RUN: 'false',
      MINT_WORKER_ENABLED: 'false',
      QUEST_EVENT_WORKER_ENABLED: 'false',
      ...options.env,
    });
    moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule,
        LoggingModule,
        DatabaseModule.forRoot(appEntities),
        CommonModule,
        ObservabilityModule,
        CryptoModule,
        ...options.imports,
      ],
      providers: options.providers ?? [],
    })
      .overrideProvider(AppConfig)
      .useValue(config)
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    await moduleRef.init();
    const ref = moduleRef;
    return {
      get: <T>(token: Type<T> | string | symbol) => ref.get<T>(token, { strict: false }),
      dataSource: ref.get<DataSource>(getDataSourceToken()),
      clock,
      config,
      databaseName: db.name,
      moduleRef: ref,
      close: async () => {
        await ref.close();
        await db.drop();
      },
    };
  } catch (err) {
    await moduleRef?.close().catch(() => undefined);
    await db.drop();
    throw err;
  }
}
