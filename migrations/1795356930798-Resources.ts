import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Resources1795356930798 implements MigrationInterface {
  name = 'Resources1795356930798';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"resource_types\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"slug\" character varying(64) NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"kind\" character varying(16) NOT NULL, \"image_url\" character varying(2048), \"quest_event_id\" uuid, CONSTRAINT \"PK_d3bca389a6c56e445c7487b245e\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_resource_types_tenant\" ON \"resource_types\"  (\"tenant_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_resource_types_community_slug\" ON \"resource_types\"  (\"community_id\", \"slug\") ");
    await queryRunner.query("CREATE TABLE \"resource_ledger\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"resource_type_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"delta\" bigint NOT NULL, \"earned_delta\" bigint NOT NULL, \"reason\" character varying(64) NOT NULL, \"reference\" character varying(200), \"idempotency_key\" character varying(128), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_4a05f88c5eab249dd0d7957ae4f\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_resource_ledger_user\" ON \"resource_ledger\"  (\"resource_type_id\", \"user_id\", \"created_at\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_resource_ledger_idempotency\" ON \"resource_ledger\"  (\"tenant_id\", \"idempotency_key\") WHERE idempotency_key IS NOT NULL");
    await queryRunner.query("CREATE TABLE \"resource_balances\" (\"resource_type_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"balance\" bigint NOT NULL DEFAULT '0', \"earned\" bigint NOT NULL DEFAULT '0', \"earned_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"ck_resource_balances_non_negative\" CHECK (balance >= 0 AND earned >= 0), CONSTRAINT \"PK_af2c65f71cb0dd7729c27c212aa\" PRIMARY KEY (\"resource_type_id\", \"user_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_resource_balances_user\" ON \"resource_balances\"  (\"tenant_id\", \"user_id\") ");
    // Leaderboard order (mixed directions: not expressible in the entity decorator, see ResourceBalance).
    await queryRunner.query("CREATE INDEX \"ix_resource_balances_rank\" ON \"resource_balances\" (\"resource_type_id\", \"earned\" DESC, \"earned_at\" ASC, \"user_id\" ASC) WHERE earned > 0");
    await queryRunner.query("CREATE TABLE \"resource_rank_buckets\" (\"resource_type_id\" uuid NOT NULL, \"level\" smallint NOT NULL, \"bucket\" bigint NOT NULL, \"count\" bigint NOT NULL, CONSTRAINT \"PK_9fb63ba333f9e85d4c0bbd0df9a\" PRIMARY KEY (\"resource_type_id\", \"level\", \"bucket\"))");
    await queryRunner.query("CREATE TABLE \"resource_rank_bucket_deltas\" (\"id\" BIGSERIAL NOT NULL, \"resource_type_id\" uuid NOT NULL, \"level\" smallint NOT NULL, \"bucket\" bigint NOT NULL, \"delta\" integer NOT NULL, CONSTRAINT \"PK_cdf8d3892a263369b2a856dc3c6\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_resource_rank_bucket_deltas_lookup\" ON \"resource_rank_bucket_deltas\"  (\"resource_type_id\", \"level\", \"bucket\") ");
    await queryRunner.query("ALTER TABLE \"resource_types\" ADD CONSTRAINT \"FK_eef228865d5387ffd33cc1fddbd\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"resource_ledger\" ADD CONSTRAINT \"FK_fbf7a8fabaf072e0131533e2f01\" FOREIGN KEY (\"resource_type_id\") REFERENCES \"resource_types\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"resource_ledger\" ADD CONSTRAINT \"FK_42267db8a4defc99aed1215baea\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"resource_balances\" ADD CONSTRAINT \"FK_e49ab9a38c490633958b21ba6c4\" FOREIGN KEY (\"resource_type_id\") REFERENCES \"resource_types\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"resource_balances\" ADD CONSTRAINT \"FK_2b54c4db8e91c09b5014f1a11e9\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"resource_balances\" DROP CONSTRAINT \"FK_2b54c4db8e91c09b5014f1a11e9\"");
    await queryRunner.query("ALTER TABLE \"resource_balances\" DROP CONSTRAINT \"FK_e49ab9a38c490633958b21ba6c4\"");
    await queryRunner.query("ALTER TABLE \"resource_ledger\" DROP CONSTRAINT \"FK_42267db8a4defc99aed1215baea\"");
    await queryRunner.query("ALTER TABLE \"resource_ledger\" DROP CONSTRAINT \"FK_fbf7a8fabaf072e0131533e2f01\"");
    await queryRunner.query("ALTER TABLE \"resource_types\" DROP CONSTRAINT \"FK_eef228865d5387ffd33cc1fddbd\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_resource_rank_bucket_deltas_lookup\"");
    await queryRunner.query("DROP TABLE \"resource_rank_bucket_deltas\"");
    await queryRunner.query("DROP TABLE \"resource_rank_buckets\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_resource_balances_rank\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_resource_balances_user\"");
    await queryRunner.query("DROP TABLE \"resource_balances\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_resource_ledger_idempotency\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_resource_ledger_user\"");
    await queryRunner.query("DROP TABLE \"resource_ledger\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_resource_types_community_slug\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_resource_types_tenant\"");
    await queryRunner.query("DROP TABLE \"resource_types\"");
  }
}
