import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditRetentionIndex1795654825325 implements MigrationInterface {
  name = 'AuditRetentionIndex1795654825325';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE INDEX \"ix_admin_audit_log_time\" ON \"admin_audit_log\"  (\"created_at\") ");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_admin_audit_log_time\"");
  }
}
