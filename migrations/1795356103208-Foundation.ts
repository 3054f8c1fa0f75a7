import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795356103208 implements MigrationInterface {
  name = 'Foundation1795356103208';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"tenants\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"slug\" character varying(64) NOT NULL, \"name\" character varying(200) NOT NULL, \"shared_secret_enc\" text NOT NULL, \"api_key_hash\" character varying(64) NOT NULL, \"settings\" jsonb NOT NULL DEFAULT '{}'::jsonb, CONSTRAINT \"PK_53be67a04681c66b87ee27c9321\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_tenants_slug\" ON \"tenants\"  (\"slug\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_tenants_api_key_hash\" ON \"tenants\"  (\"api_key_hash\") ");
    await queryRunner.query("CREATE TABLE \"users\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"username\" character varying(32), \"username_normalized\" character varying(32), \"password_hash\" text, \"handle\" character varying(32) NOT NULL, \"handle_normalized\" character varying(32) NOT NULL, \"display_name\" character varying(64), CONSTRAINT \"PK_a3ffb1c0c8416b9fc6f907b7433\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_users_tenant_handle\" ON \"users\"  (\"tenant_id\", \"handle_normalized\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_users_tenant_username\" ON \"users\"  (\"tenant_id\", \"username_normalized\") WHERE username_normalized IS NOT NULL");
    await queryRunner.query("CREATE TABLE \"refresh_tokens\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"token_hash\" character varying(64) NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"expires_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"revoked_at\" TIMESTAMP WITH TIME ZONE, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_7d8bee0204106019488c4c50ffa\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_refresh_tokens_hash\" ON \"refresh_tokens\"  (\"token_hash\") ");
    await queryRunner.query("CREATE INDEX \"ix_refresh_tokens_user\" ON \"refresh_tokens\"  (\"user_id\") ");
    await queryRunner.query("CREATE TABLE \"app_secrets\" (\"name\" character varying(64) NOT NULL, \"value\" text NOT NULL, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_6c785a9da9881929b0d1d780423\" PRIMARY KEY (\"name\"))");
    await queryRunner.query("ALTER TABLE \"users\" ADD CONSTRAINT \"FK_109638590074998bb72a2f2cf08\" FOREIGN KEY (\"tenant_id\") REFERENCES \"tenants\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"refresh_tokens\" ADD CONSTRAINT \"FK_3ddc983c5f7bcf132fd8732c3f4\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"refresh_tokens\" DROP CONSTRAINT \"FK_3ddc983c5f7bcf132fd8732c3f4\"");
    await queryRunner.query("ALTER TABLE \"users\" DROP CONSTRAINT \"FK_109638590074998bb72a2f2cf08\"");
    await queryRunner.query("DROP TABLE \"app_secrets\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_refresh_tokens_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_refresh_tokens_hash\"");
    await queryRunner.query("DROP TABLE \"refresh_tokens\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_users_tenant_username\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_users_tenant_handle\"");
    await queryRunner.query("DROP TABLE \"users\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_tenants_api_key_hash\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_tenants_slug\"");
    await queryRunner.query("DROP TABLE \"tenants\"");
  }
}
