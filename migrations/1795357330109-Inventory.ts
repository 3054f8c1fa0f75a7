import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Inventory1795357330109 implements MigrationInterface {
  name = 'Inventory1795357330109';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"inventory_slots\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"key\" character varying(64) NOT NULL, \"name\" character varying(100) NOT NULL, \"description\" character varying(1000) NOT NULL DEFAULT '', \"position\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_6d859a9fcdaa7d7853805a6afea\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_inventory_slots_tenant\" ON \"inventory_slots\"  (\"tenant_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_inventory_slots_community_key\" ON \"inventory_slots\"  (\"community_id\", \"key\") ");
    await queryRunner.query("CREATE TABLE \"inventory_items\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"slot_id\" uuid NOT NULL, \"name\" character varying(100) NOT NULL, \"description\" character varying(1000) NOT NULL DEFAULT '', \"image_url\" character varying(2048), \"rarity\" character varying(32) NOT NULL DEFAULT 'common', \"attributes\" jsonb NOT NULL DEFAULT '[]', \"supply\" integer, \"granted\" integer NOT NULL DEFAULT '0', CONSTRAINT \"ck_inventory_items_supply\" CHECK (granted >= 0 AND (supply IS NULL OR granted <= supply)), CONSTRAINT \"PK_cf2f451407242e132547ac19169\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_inventory_items_tenant\" ON \"inventory_items\"  (\"tenant_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_inventory_items_community_slot\" ON \"inventory_items\"  (\"community_id\", \"slot_id\") ");
    await queryRunner.query("CREATE TABLE \"user_items\" (\"user_id\" uuid NOT NULL, \"item_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"quantity\" integer NOT NULL, \"acquired_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"ck_user_items_quantity\" CHECK (quantity > 0), CONSTRAINT \"PK_66e6a222459453e55a71bde6d8f\" PRIMARY KEY (\"user_id\", \"item_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_user_items_user_community\" ON \"user_items\"  (\"tenant_id\", \"user_id\", \"community_id\") ");
    await queryRunner.query("CREATE TABLE \"item_grants\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"item_id\" uuid NOT NULL, \"quantity\" integer NOT NULL, \"reason\" character varying(64) NOT NULL, \"reference\" character varying(200), \"idempotency_key\" character varying(128), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_09e603085fa3dd9787fc7009202\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_item_grants_user\" ON \"item_grants\"  (\"tenant_id\", \"user_id\", \"created_at\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_item_grants_idempotency\" ON \"item_grants\"  (\"tenant_id\", \"idempotency_key\") WHERE idempotency_key IS NOT NULL");
    await queryRunner.query("CREATE TABLE \"avatars\" (\"community_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"version\" integer NOT NULL DEFAULT '0', \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_61d6ed7af25db4f96909c6d1544\" PRIMARY KEY (\"community_id\", \"user_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_avatars_tenant\" ON \"avatars\"  (\"tenant_id\") ");
    await queryRunner.query("CREATE TABLE \"avatar_slots\" (\"user_id\" uuid NOT NULL, \"slot_id\" uuid NOT NULL, \"item_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"allocated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_0ce81674151251e559e36bc33bf\" PRIMARY KEY (\"user_id\", \"slot_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_avatar_slots_user\" ON \"avatar_slots\"  (\"tenant_id\", \"community_id\", \"user_id\") ");
    await queryRunner.query("CREATE TABLE \"avatar_mints\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"blockchain\" character varying(32) NOT NULL, \"chain_id\" integer NOT NULL, \"contract_address\" character varying(42) NOT NULL, \"recipient\" character varying(42) NOT NULL, \"avatar_version\" integer NOT NULL, \"token_id\" character varying(78) NOT NULL, \"token_uri\" character varying(2048) NOT NULL, \"metadata\" jsonb NOT NULL, \"status\" character varying(16) NOT NULL, \"attempts\" integer NOT NULL DEFAULT '0', \"next_attempt_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"nonce\" integer, \"raw_tx\" text, \"tx_hash\" character varying(66), \"last_error\" character varying(500), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"minted_at\" TIMESTAMP WITH TIME ZONE, CONSTRAINT \"PK_df8f05b79f75e2d999e8be4bae2\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_avatar_mints_user\" ON \"avatar_mints\"  (\"tenant_id\", \"community_id\", \"user_id\", \"created_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_avatar_mints_due\" ON \"avatar_mints\"  (\"status\", \"next_attempt_at\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_avatar_mints_version\" ON \"avatar_mints\"  (\"community_id\", \"user_id\", \"blockchain\", \"avatar_version\") ");
    await queryRunner.query("ALTER TABLE \"inventory_slots\" ADD CONSTRAINT \"FK_cb211877561f1ae1c0fa66059b8\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"inventory_items\" ADD CONSTRAINT \"FK_f54a7983b294dbf3fca35e6a684\" FOREIGN KEY (\"slot_id\") REFERENCES \"inventory_slots\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"user_items\" ADD CONSTRAINT \"FK_020e818d4ac25c16e4906f27d8b\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"user_items\" ADD CONSTRAINT \"FK_9a25434e868cc98a8401560adc8\" FOREIGN KEY (\"item_id\") REFERENCES \"inventory_items\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"avatar_slots\" ADD CONSTRAINT \"FK_5e87878f6981d224c42feb575f7\" FOREIGN KEY (\"slot_id\") REFERENCES \"inventory_slots\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"avatar_slots\" ADD CONSTRAINT \"FK_dd1666c40d4edaaa1d6f8f319ec\" FOREIGN KEY (\"item_id\") REFERENCES \"inventory_items\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"avatar_slots\" DROP CONSTRAINT \"FK_dd1666c40d4edaaa1d6f8f319ec\"");
    await queryRunner.query("ALTER TABLE \"avatar_slots\" DROP CONSTRAINT \"FK_5e87878f6981d224c42feb575f7\"");
    await queryRunner.query("ALTER TABLE \"user_items\" DROP CONSTRAINT \"FK_9a25434e868cc98a8401560adc8\"");
    await queryRunner.query("ALTER TABLE \"user_items\" DROP CONSTRAINT \"FK_020e818d4ac25c16e4906f27d8b\"");
    await queryRunner.query("ALTER TABLE \"inventory_items\" DROP CONSTRAINT \"FK_f54a7983b294dbf3fca35e6a684\"");
    await queryRunner.query("ALTER TABLE \"inventory_slots\" DROP CONSTRAINT \"FK_cb211877561f1ae1c0fa66059b8\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_avatar_mints_version\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_avatar_mints_due\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_avatar_mints_user\"");
    await queryRunner.query("DROP TABLE \"avatar_mints\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_avatar_slots_user\"");
    await queryRunner.query("DROP TABLE \"avatar_slots\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_avatars_tenant\"");
    await queryRunner.query("DROP TABLE \"avatars\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_item_grants_idempotency\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_item_grants_user\"");
    await queryRunner.query("DROP TABLE \"item_grants\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_user_items_user_community\"");
    await queryRunner.query("DROP TABLE \"user_items\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_inventory_items_community_slot\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_inventory_items_tenant\"");
    await queryRunner.query("DROP TABLE \"inventory_items\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_inventory_slots_community_key\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_inventory_slots_tenant\"");
    await queryRunner.query("DROP TABLE \"inventory_slots\"");
  }
}
