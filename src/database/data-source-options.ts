import type { DataSourceOptions } from 'typeorm';
import { migrations } from '../../migrations/index.js';
import { watchPooledClient } from './pg-connections.js';
import { failoverClientClass, primaryLocatorFor, splitHosts } from './primary-locator.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/**
 * The one data-source configuration, shared by the app, the migration scripts and the tests, for
 * the entities they pass (the app's: src/app.entities.ts).
 * `synchronize` is never on: the schema comes from `migrations/` only. `lockTimeoutMs` (the app's
 * DB_LOCK_TIMEOUT_MS) bounds every lock wait of the pool's sessions; without it (the CLI) lock
 * waits are bounded only by the statement timeout.
 */
export function dataSourceOptions(
  url: string,
  entities: NonNullable<DataSourceOptions['entities']>,
  overrides: { poolSize?: number; migrationsRun?: boolean; lockTimeoutMs?: number } = {},
): DataSourceOptions {
  // Several hosts (libpq's form, as a failover manager prints it): TypeORM parses the first one,
  // the pool's clients connect to whichever is the primary (src/database/primary-locator.ts).
  const locator = primaryLocatorFor(url);
  return {
    type: 'postgres',
    url: locator ? splitHosts(url).urlFor(locator.hosts[0]) : url,
    entities,
    migrations,
    namingStrategy: new SnakeNamingStrategy(),
    // gen_random_uuid() is built into PostgreSQL 13+: no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    migrationsRun: overrides.migrationsRun ?? false,
    migrationsTransactionMode: 'each',
    logging: ['error', 'warn', 'migration'],
    logger: 'debug',
    extra: {
      max: overrides.poolSize ?? 10,
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30000,
      // Fail a statement rather than hang a request forever.
      statement_timeout: 15000,
      // A statement waiting on a row another transaction holds (a hot listing, balance or event
      // row) fails after this instead of holding its pooled connection until the statement
      // timeout: one stuck row cannot drain the pool. 0 = no limit.
      ...(overrides.lockTimeoutMs ? { lock_timeout: overrides.lockTimeoutMs } : {}),
      // An 'error' listener on every client for its whole life (src/database/pg-connections.ts).
      onConnect: watchPooledClient,
      ...(locator ? { Client: failoverClientClass(locator) } : {}),
      application_name: 'community-gaming-service',
      // No JIT compilation: the service runs short OLTP statements whose estimated cost can pass
      // jit_above_cost (the rank counters) while compiling costs far more than running them.
      // A statement whose process is gone (killed, or cut at the end of a shutdown's grace) stops
      // within a second instead of running, or waiting on a lock, to its end and committing an
      // answer no one reads (PostgreSQL 14+).
      options: '-c jit=off -c client_connection_check_interval=1000',
    },
  };
}
