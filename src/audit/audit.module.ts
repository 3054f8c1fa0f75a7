import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditAdminController } from './audit.admin.controller.js';
import { AuditLogMiddleware } from './audit-log.middleware.js';
import { AuditLogRepository } from './audit-log.repository.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditLogWriter } from './audit-log.writer.js';
import { AuditRetention } from './audit-retention.js';
import { AdminAuditEntry } from './entities/admin-audit-entry.entity.js';

/** The tables this module owns. */
export const AUDIT_ENTITIES = [AdminAuditEntry];

/**
 * The audit log of management writes: the middleware `setupApp` installs on /v1/admin (it
 * records non-GET requests under `/v1/admin`), its batched writer, the route that reads it, and
 * its retention pass (AUDIT_RETENTION_DAYS).
 */
@Module({
  imports: [TypeOrmModule.forFeature(AUDIT_ENTITIES)],
  controllers: [AuditAdminController],
  providers: [AuditLogRepository, AuditLogWriter, AuditLogService, AuditLogMiddleware, AuditRetention],
  exports: [AuditLogMiddleware, AuditLogWriter],
})
export class AuditModule {}
