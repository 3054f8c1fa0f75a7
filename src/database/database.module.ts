import { type DynamicModule, Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSourceOptions } from 'typeorm';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { EmbeddedDatabase } from './embedded-postgres.js';
import { HotRows } from './hot-rows.js';
import { ReplicaReads } from './replica-reads.js';
import { SummaryFolds } from './summary-folds.js';

import { CacheBus } from './cache-bus.js';
import { DATABASE_URL, EMBEDDED_DATABASE } from './database.tokens.js';

export { DATABASE_URL, EMBEDDED_DATABASE };

/** The configured server, or the embedded PostgreSQL (started here) when none is configured. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  /** The data source of `entities` (the app passes its list: the database layer knows no domain). */
  static forRoot(entities: NonNullable<DataSourceOptions['entities']>): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig, DATABASE_URL],
          useFactory: (config: AppConfig, url: string) =>
            dataSourceOptions(url, entities, {
              poolSize: config.DB_POOL_SIZE,
              migrationsRun: config.MIGRATIONS_RUN,
              lockTimeoutMs: config.DB_LOCK_TIMEOUT_MS,
            }),
        }),
      ],
      providers: [
        HotRows,
        CacheBus,
        ReplicaReads,
        SummaryFolds,
        {
          provide: EMBEDDED_DATABASE,
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            config.DATABASE_URL
              ? null
              : new EmbeddedDatabase({
                  dataDir: `${config.DATA_DIR}/postgres`,
                  port: config.EMBEDDED_PG_PORT,
                  database: 'cgs',
                  log: (line) => new Logger('EmbeddedPostgres').debug(line),
                }),
        },
        {
          provide: DATABASE_URL,
          inject: [AppConfig, EMBEDDED_DATABASE],
          useFactory: async (config: AppConfig, embedded: EmbeddedDatabase | null) => {
            if (config.DATABASE_URL) return config.DATABASE_URL;
            new Logger('Database').log(`no DATABASE_URL: starting embedded PostgreSQL in ${config.DATA_DIR}/postgres`);
            return embedded!.start();
          },
        },
      ],
      exports: [DATABASE_URL, EMBEDDED_DATABASE, HotRows, CacheBus, ReplicaReads, SummaryFolds],
    };
  }

  constructor(@Inject(EMBEDDED_DATABASE) private readonly embedded: EmbeddedDatabase | null) {}

  async onApplicationShutdown(): Promise<void> {
    // TypeORM's own shutdown hook closes the pool; the embedded server stops last.
    await this.embedded?.stop();
  }
}
