import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminAuditLog1795610000000 implements MigrationInterface {
  name = 'AdminAuditLog1795610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"admin_audit_log\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"actor\" character varying(64) NOT NULL, \"method\" character varying(8) NOT NULL, \"route\" character varying(256) NOT NULL, \"target\" jsonb NOT NULL, \"body\" jsonb, \"status_code\" smallint NOT NULL, \"outcome\" character varying(128), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_9425be48a9c753f5753017c61b2\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_admin_audit_log_tenant_time\" ON \"admin_audit_log\" (\"tenant_id\", \"created_at\" DESC)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_admin_audit_log_tenant_time\"");
    await queryRunner.query("DROP TABLE \"admin_audit_log\"");
  }
}
