import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminAuditAborted1795649189400 implements MigrationInterface {
  name = 'AdminAuditAborted1795649189400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"admin_audit_log\" ADD \"aborted\" boolean NOT NULL DEFAULT false");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"admin_audit_log\" DROP COLUMN \"aborted\"");
  }
}
