import type { MigrationInterface, QueryRunner } from 'typeorm';

export class StorePrizes1795357732969 implements MigrationInterface {
  name = 'StorePrizes1795357732969';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"store_requirements\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"key\" character varying(64) NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"kind\" character varying(16) NOT NULL, \"schema\" jsonb, \"personal_data\" boolean NOT NULL DEFAULT true, \"item_id\" uuid, \"resource_type_id\" uuid, \"min_amount\" bigint, CONSTRAINT \"PK_3db8b8b8947b8a0ec28610d0e42\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_store_requirements_tenant_key\" ON \"store_requirements\"  (\"tenant_id\", \"key\") ");
    await queryRunner.query("CREATE TABLE \"store_saved_requirement_data\" (\"user_id\" uuid NOT NULL, \"requirement_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"data\" jsonb, \"data_encrypted\" text, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_f874de9f0ec8f09ccce438fffb6\" PRIMARY KEY (\"user_id\", \"requirement_id\"))");
    await queryRunner.query("CREATE TABLE \"store_listings\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"image_url\" character varying(2048), \"kind\" character varying(16) NOT NULL, \"item_id\" uuid, \"prize_id\" uuid, \"resource_type_id\" uuid, \"quantity\" integer NOT NULL DEFAULT '1', \"price\" jsonb NOT NULL, \"total_supply\" integer, \"sold\" integer NOT NULL DEFAULT '0', \"per_user_limit\" integer, \"starts_at\" TIMESTAMP WITH TIME ZONE, \"ends_at\" TIMESTAMP WITH TIME ZONE, \"requirement_ids\" jsonb NOT NULL DEFAULT '[]', \"active\" boolean NOT NULL DEFAULT true, \"position\" integer NOT NULL DEFAULT '0', CONSTRAINT \"ck_store_listings_supply\" CHECK (sold >= 0 AND (total_supply IS NULL OR sold <= total_supply)), CONSTRAINT \"PK_42e6d2f832db20dedd703c93fd4\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_store_listings_community\" ON \"store_listings\"  (\"tenant_id\", \"community_id\", \"position\") ");
    await queryRunner.query("CREATE TABLE \"store_purchases\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"listing_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"nonce\" character varying(128) NOT NULL, \"fingerprint\" character(64) NOT NULL, \"kind\" character varying(16) NOT NULL, \"item_id\" uuid, \"prize_id\" uuid, \"resource_type_id\" uuid, \"quantity\" integer NOT NULL, \"price\" jsonb NOT NULL, \"requirement_data_encrypted\" text, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_4f5cb8b555068d34f37f7e95445\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_store_purchases_listing\" ON \"store_purchases\"  (\"listing_id\", \"created_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_store_purchases_user_community\" ON \"store_purchases\"  (\"tenant_id\", \"user_id\", \"community_id\", \"created_at\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_store_purchases_nonce\" ON \"store_purchases\"  (\"tenant_id\", \"user_id\", \"nonce\") ");
    await queryRunner.query("CREATE TABLE \"store_purchase_counts\" (\"listing_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"count\" integer NOT NULL, CONSTRAINT \"PK_14e2ad2996d0a5691e767c7492d\" PRIMARY KEY (\"listing_id\", \"user_id\"))");
    await queryRunner.query("CREATE TABLE \"prizes\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"image_url\" character varying(2048), \"kind\" character varying(16) NOT NULL, \"total_supply\" integer, \"awarded\" integer NOT NULL DEFAULT '0', \"requirement_ids\" jsonb NOT NULL DEFAULT '[]', CONSTRAINT \"ck_prizes_supply\" CHECK (awarded >= 0 AND (total_supply IS NULL OR awarded <= total_supply)), CONSTRAINT \"PK_47e4c94a955b9bf019cae56ba6a\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_prizes_tenant\" ON \"prizes\"  (\"tenant_id\", \"created_at\") ");
    await queryRunner.query("CREATE TABLE \"prize_awards\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"prize_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"quantity\" integer NOT NULL, \"source\" character varying(16) NOT NULL, \"reason\" character varying(64) NOT NULL, \"reference\" character varying(200), \"idempotency_key\" character varying(128), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_613f1670067555686c218fbd791\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_prize_awards_user\" ON \"prize_awards\"  (\"tenant_id\", \"user_id\", \"prize_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_prize_awards_prize_user\" ON \"prize_awards\"  (\"prize_id\", \"user_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_prize_awards_idempotency\" ON \"prize_awards\"  (\"tenant_id\", \"idempotency_key\") WHERE idempotency_key IS NOT NULL");
    await queryRunner.query("ALTER TABLE \"store_saved_requirement_data\" ADD CONSTRAINT \"FK_626ad1c514863311d0c9147223e\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_saved_requirement_data\" ADD CONSTRAINT \"FK_25beef7aaa74b9625e9bc76c45e\" FOREIGN KEY (\"requirement_id\") REFERENCES \"store_requirements\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_listings\" ADD CONSTRAINT \"FK_88727ce6136062802605fb89bc9\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_purchases\" ADD CONSTRAINT \"FK_b828c648819eb05ff83719cfb8a\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_purchases\" ADD CONSTRAINT \"FK_0374bdbdd9b8d221d6f19fd8123\" FOREIGN KEY (\"listing_id\") REFERENCES \"store_listings\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_purchase_counts\" ADD CONSTRAINT \"FK_066420fbe48ebc5cee437521574\" FOREIGN KEY (\"listing_id\") REFERENCES \"store_listings\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"prize_awards\" ADD CONSTRAINT \"FK_9213eb9752a3deffef37a64a6f2\" FOREIGN KEY (\"prize_id\") REFERENCES \"prizes\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"prize_awards\" ADD CONSTRAINT \"FK_05842ab8c16aea32d9103511094\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"prize_awards\" DROP CONSTRAINT \"FK_05842ab8c16aea32d9103511094\"");
    await queryRunner.query("ALTER TABLE \"prize_awards\" DROP CONSTRAINT \"FK_9213eb9752a3deffef37a64a6f2\"");
    await queryRunner.query("ALTER TABLE \"store_purchase_counts\" DROP CONSTRAINT \"FK_066420fbe48ebc5cee437521574\"");
    await queryRunner.query("ALTER TABLE \"store_purchases\" DROP CONSTRAINT \"FK_0374bdbdd9b8d221d6f19fd8123\"");
    await queryRunner.query("ALTER TABLE \"store_purchases\" DROP CONSTRAINT \"FK_b828c648819eb05ff83719cfb8a\"");
    await queryRunner.query("ALTER TABLE \"store_listings\" DROP CONSTRAINT \"FK_88727ce6136062802605fb89bc9\"");
    await queryRunner.query("ALTER TABLE \"store_saved_requirement_data\" DROP CONSTRAINT \"FK_25beef7aaa74b9625e9bc76c45e\"");
    await queryRunner.query("ALTER TABLE \"store_saved_requirement_data\" DROP CONSTRAINT \"FK_626ad1c514863311d0c9147223e\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_prize_awards_idempotency\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_prize_awards_prize_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_prize_awards_user\"");
    await queryRunner.query("DROP TABLE \"prize_awards\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_prizes_tenant\"");
    await queryRunner.query("DROP TABLE \"prizes\"");
    await queryRunner.query("DROP TABLE \"store_purchase_counts\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_store_purchases_nonce\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_store_purchases_user_community\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_store_purchases_listing\"");
    await queryRunner.query("DROP TABLE \"store_purchases\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_store_listings_community\"");
    await queryRunner.query("DROP TABLE \"store_listings\"");
    await queryRunner.query("DROP TABLE \"store_saved_requirement_data\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_store_requirements_tenant_key\"");
    await queryRunner.query("DROP TABLE \"store_requirements\"");
  }
}
