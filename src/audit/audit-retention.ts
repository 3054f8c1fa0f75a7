import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RetentionPass } from '../common/background/retention-pass.js';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { AuditLogRepository } from './audit-log.repository.js';

/**
 * Keeps the admin audit log for AUDIT_RETENTION_DAYS (`RetentionPass`: hourly, every instance);
 * 0 keeps everything.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly pass: RetentionPass<'entries'>;

  constructor(entries: AuditLogRepository, config: AppConfig, clock: Clock) {
    this.pass = new RetentionPass(
      'audit log',
      config.AUDIT_RETENTION_DAYS,
      clock,
      { entries: (before, n) => entries.deleteBefore(before, n) },
      new Logger(AuditRetention.name),
    );
  }

  onApplicationBootstrap(): void {
    this.pass.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.pass.stop();
  }

  /** One pass: how many entries it deleted. Tests call it directly (`batch`: rows per statement). */
  runOnce(batch?: number): Promise<{ entries: number }> {
    return this.pass.runOnce(batch);
  }
}
