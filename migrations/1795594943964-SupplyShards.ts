import type { MigrationInterface, QueryRunner } from 'typeorm';

// Generated from the entities; the data moves are written by hand (TypeORM generates no data
// moves): every existing listing and item gets its 16 shards (LISTING_SHARDS, ITEM_SHARDS), shard
// 0 carrying what was sold or granted so far and the rest of the supply split evenly, so Σ sold =
// the old `sold`, Σ cap = the supply (null stays unlimited) and every shard is within its cap.
// Going down, the columns get the shards' sums back before the tables go.
const LISTING_SHARDS_FROM_ROWS = `
INSERT INTO store_listing_shards (listing_id, shard, cap, sold)
SELECT l.id, g,
       CASE WHEN g = 0 THEN l.sold ELSE 0 END + (l.total_supply - l.sold) / 16 + CASE WHEN g < (l.total_supply - l.sold) % 16 THEN 1 ELSE 0 END,
       CASE WHEN g = 0 THEN l.sold ELSE 0 END
FROM store_listings l, generate_series(0, 15) AS g`;
const ITEM_SHARDS_FROM_ROWS = `
INSERT INTO inventory_item_shards (item_id, shard, cap, granted)
SELECT i.id, g,
       CASE WHEN g = 0 THEN i.granted ELSE 0 END + (i.supply - i.granted) / 16 + CASE WHEN g < (i.supply - i.granted) % 16 THEN 1 ELSE 0 END,
       CASE WHEN g = 0 THEN i.granted ELSE 0 END
FROM inventory_items i, generate_series(0, 15) AS g`;
const ROWS_FROM_SHARDS = [
  'UPDATE store_listings l SET sold = (SELECT COALESCE(SUM(sold), 0) FROM store_listing_shards h WHERE h.listing_id = l.id)',
  'UPDATE inventory_items i SET granted = (SELECT COALESCE(SUM(granted), 0) FROM inventory_item_shards h WHERE h.item_id = i.id)',
];

export class SupplyShards1795594943964 implements MigrationInterface {
  name = 'SupplyShards1795594943964';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"inventory_item_shards\" (\"item_id\" uuid NOT NULL, \"shard\" smallint NOT NULL, \"cap\" integer, \"granted\" integer NOT NULL DEFAULT '0', CONSTRAINT \"ck_inventory_item_shards_supply\" CHECK (granted >= 0 AND (cap IS NULL OR granted <= cap)), CONSTRAINT \"PK_307d9713352ea99a5d64aebedf2\" PRIMARY KEY (\"item_id\", \"shard\"))");
    await queryRunner.query("CREATE TABLE \"store_listing_shards\" (\"listing_id\" uuid NOT NULL, \"shard\" smallint NOT NULL, \"cap\" integer, \"sold\" integer NOT NULL DEFAULT '0', CONSTRAINT \"ck_store_listing_shards_supply\" CHECK (sold >= 0 AND (cap IS NULL OR sold <= cap)), CONSTRAINT \"PK_8c83c3ecd598963aea7a0734224\" PRIMARY KEY (\"listing_id\", \"shard\"))");
    await queryRunner.query("ALTER TABLE \"inventory_item_shards\" ADD CONSTRAINT \"FK_c48730c331121fd7689bacfeb24\" FOREIGN KEY (\"item_id\") REFERENCES \"inventory_items\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"store_listing_shards\" ADD CONSTRAINT \"FK_84be35526680f422fcbd052d80d\" FOREIGN KEY (\"listing_id\") REFERENCES \"store_listings\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query(LISTING_SHARDS_FROM_ROWS);
    await queryRunner.query(ITEM_SHARDS_FROM_ROWS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const q of ROWS_FROM_SHARDS) await queryRunner.query(q);
    await queryRunner.query("ALTER TABLE \"store_listing_shards\" DROP CONSTRAINT \"FK_84be35526680f422fcbd052d80d\"");
    await queryRunner.query("ALTER TABLE \"inventory_item_shards\" DROP CONSTRAINT \"FK_c48730c331121fd7689bacfeb24\"");
    await queryRunner.query("DROP TABLE \"store_listing_shards\"");
    await queryRunner.query("DROP TABLE \"inventory_item_shards\"");
  }
}
