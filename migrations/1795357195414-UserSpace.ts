import type { MigrationInterface, QueryRunner } from 'typeorm';

export class UserSpace1795357195414 implements MigrationInterface {
  name = 'UserSpace1795357195414';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"notifications\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"community_id\" uuid, \"type\" character varying(64) NOT NULL, \"title\" character varying(200) NOT NULL, \"data\" jsonb NOT NULL DEFAULT '{}', \"read_at\" TIMESTAMP WITH TIME ZONE, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_6a72c3c0f683f6462415e653c3a\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_notifications_user_unread\" ON \"notifications\"  (\"tenant_id\", \"user_id\") WHERE read_at IS NULL");
    await queryRunner.query("CREATE INDEX \"ix_notifications_user_created\" ON \"notifications\"  (\"tenant_id\", \"user_id\", \"created_at\") ");
    await queryRunner.query("CREATE TABLE \"social_accounts\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"account_type\" character varying(32) NOT NULL, \"subject_id\" character varying(256) NOT NULL, \"is_public\" boolean NOT NULL, \"handle\" character varying(128), \"server\" character varying(128), \"expiry_date\" TIMESTAMP WITH TIME ZONE, \"extra_args\" jsonb, \"provider_created_at\" jsonb, \"user_token_encrypted\" text, \"refresh_token_encrypted\" text, CONSTRAINT \"PK_e9e58d2d8e9fafa20af914d9750\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_social_accounts_user\" ON \"social_accounts\"  (\"tenant_id\", \"user_id\", \"account_type\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_social_accounts_subject\" ON \"social_accounts\"  (\"tenant_id\", \"account_type\", \"subject_id\") ");
    await queryRunner.query("CREATE TABLE \"user_profiles\" (\"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"biography\" character varying(1000), \"date_of_birth\" date, \"address\" jsonb, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_6ca9503d77ae39b4b5a6cc3ba88\" PRIMARY KEY (\"user_id\"))");
    await queryRunner.query("ALTER TABLE \"notifications\" ADD CONSTRAINT \"FK_9a8a82462cab47c73d25f49261f\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"notifications\" ADD CONSTRAINT \"FK_6b7088e778848840b7c6d0e5683\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"social_accounts\" ADD CONSTRAINT \"FK_05a0f282d3bed93ca048a7e54dd\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"user_profiles\" ADD CONSTRAINT \"FK_6ca9503d77ae39b4b5a6cc3ba88\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"user_profiles\" DROP CONSTRAINT \"FK_6ca9503d77ae39b4b5a6cc3ba88\"");
    await queryRunner.query("ALTER TABLE \"social_accounts\" DROP CONSTRAINT \"FK_05a0f282d3bed93ca048a7e54dd\"");
    await queryRunner.query("ALTER TABLE \"notifications\" DROP CONSTRAINT \"FK_6b7088e778848840b7c6d0e5683\"");
    await queryRunner.query("ALTER TABLE \"notifications\" DROP CONSTRAINT \"FK_9a8a82462cab47c73d25f49261f\"");
    await queryRunner.query("DROP TABLE \"user_profiles\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_social_accounts_subject\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_social_accounts_user\"");
    await queryRunner.query("DROP TABLE \"social_accounts\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_notifications_user_created\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_notifications_user_unread\"");
    await queryRunner.query("DROP TABLE \"notifications\"");
  }
}
