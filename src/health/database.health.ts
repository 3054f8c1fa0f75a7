import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DATABASE_URL } from '../database/database.module.js';
import { DedicatedConnection } from '../database/pg-connections.js';

/**
 * "The database answers", asked on a connection of its own, not one of the request pool: when
 * every pooled connection is busy (a row held by a stuck session, a burst) the database still
 * answers and the instance is ready; pulling healthy instances out of rotation would only move the
 * load. When the database is down or does not answer within 1.5 s, the instance is not ready.
 */
@Injectable()
export class DatabaseHealthIndicator implements OnModuleDestroy {
  private readonly connection: DedicatedConnection;

  constructor(
    @Inject(DATABASE_URL) url: string,
    private readonly indicators: HealthIndicatorService,
  ) {
    this.connection = new DedicatedConnection({ url, name: 'readiness', connectTimeoutMs: 1500 });
  }

  async isHealthy<const Key extends string>(key: Key) {
    const indicator = this.indicators.check(key);
    try {
      await this.connection.query('SELECT 1', [], 1500);
      return indicator.up();
    } catch {
      return indicator.down({ message: 'the database does not answer' });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.connection.close();
  }
}
