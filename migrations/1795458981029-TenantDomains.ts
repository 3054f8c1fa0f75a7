import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantDomains1795458981029 implements MigrationInterface {
  name = 'TenantDomains1795458981029';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"tenant_domains\" (\"domain\" character varying(253) NOT NULL, \"tenant_id\" uuid NOT NULL, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"ck_tenant_domains_domain\" CHECK (domain ~ '^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$'), CONSTRAINT \"PK_114ca3e45874f37ae9fef0ea6b5\" PRIMARY KEY (\"domain\"))");
    await queryRunner.query("CREATE INDEX \"ix_tenant_domains_tenant\" ON \"tenant_domains\"  (\"tenant_id\") ");
    await queryRunner.query("ALTER TABLE \"tenant_domains\" ADD CONSTRAINT \"FK_3fb0c5327fd96e396af091cb99a\" FOREIGN KEY (\"tenant_id\") REFERENCES \"tenants\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"tenant_domains\" DROP CONSTRAINT \"FK_3fb0c5327fd96e396af091cb99a\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_tenant_domains_tenant\"");
    await queryRunner.query("DROP TABLE \"tenant_domains\"");
  }
}
