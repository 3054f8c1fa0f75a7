import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_PURCHASE_ITEM as TAKES_INLINE } from './1795649011420-StorePurchasePriceCheck.js';

// Written by hand (TypeORM does not model functions). Taking supply from the shards (an item's
// units, a listing's unit) becomes one database function each, used by every path: the grant, the
// store's general purchase, and store_purchase_item.
//
// Why functions: the take that skips held shards (SKIP LOCKED) can keep a lock on a shard it then
// passed over (PostgreSQL locks the newest version of a row a concurrent commit changed, then
// re-checks it; a shard that commit sold out is passed over, still locked). When the take found
// nothing and the transaction went on to wait for a shard, it held such a shard out of order, and
// two of them deadlocked (a grant refused as write_conflict). In a function, the skipping take runs
// in a block of its own (a subtransaction): when it takes nothing the block is rolled back, and its
// locks with it, before the waiting take. No extra round trip: one statement for both steps.
// docs/decisions.md ("Supply shards").

export const TAKE_ITEM_SUPPLY = `
CREATE FUNCTION cgs_take_item_supply(p_item uuid, p_quantity int, p_start int) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  -- 1. A shard with enough that no other transaction holds, from a random start (p_start).
  BEGIN
    UPDATE inventory_item_shards SET granted = granted + p_quantity
     WHERE item_id = p_item AND (cap IS NULL OR granted + p_quantity <= cap) AND shard = (
       SELECT s.shard FROM inventory_item_shards s WHERE s.item_id = p_item AND (s.cap IS NULL OR s.granted + p_quantity <= s.cap)
        ORDER BY s.shard >= p_start DESC, s.shard LIMIT 1 FOR UPDATE SKIP LOCKED);
    IF FOUND THEN
      RETURN true;
    END IF;
    -- Nothing taken: roll the block back, with the locks it kept on shards it passed over.
    RAISE EXCEPTION USING ERRCODE = 'CGS01';
  EXCEPTION WHEN SQLSTATE 'CGS01' THEN
    NULL;
  END;
  -- 2. Every shard with enough is held (or none has enough): wait for the holders (a rollback gives
  --    units back), in shard order from shard 0, so waiters never hold shards in opposite orders.
  UPDATE inventory_item_shards SET granted = granted + p_quantity
   WHERE item_id = p_item AND (cap IS NULL OR granted + p_quantity <= cap) AND shard = (
     SELECT s.shard FROM inventory_item_shards s WHERE s.item_id = p_item AND (s.cap IS NULL OR s.granted + p_quantity <= s.cap)
      ORDER BY s.shard LIMIT 1 FOR UPDATE);
  IF FOUND OR p_quantity = 1 THEN
    RETURN FOUND;
  END IF;
  -- 3. No one shard has enough: spread the units over several, all locked in shard order.
  WITH locked AS (
    SELECT s.shard, s.cap - s.granted AS stock FROM inventory_item_shards s
     WHERE s.item_id = p_item AND s.cap IS NOT NULL ORDER BY s.shard FOR UPDATE),
  plan AS (
    SELECT k.shard, LEAST(k.stock, p_quantity - COALESCE(SUM(k.stock) OVER (ORDER BY k.shard ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::int AS take
      FROM locked k WHERE (SELECT SUM(stock) FROM locked) >= p_quantity)
  UPDATE inventory_item_shards s SET granted = s.granted + plan.take FROM plan
   WHERE s.item_id = p_item AND s.shard = plan.shard AND plan.take > 0;
  RETURN FOUND;
END $$`;

export const TAKE_LISTING_UNIT = `
CREATE FUNCTION cgs_take_listing_unit(p_listing uuid, p_start int) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  -- As cgs_take_item_supply, for one unit of a listing.
  BEGIN
    UPDATE store_listing_shards SET sold = sold + 1
     WHERE listing_id = p_listing AND (cap IS NULL OR sold < cap) AND shard = (
       SELECT s.shard FROM store_listing_shards s WHERE s.listing_id = p_listing AND (s.cap IS NULL OR s.sold < s.cap)
        ORDER BY s.shard >= p_start DESC, s.shard LIMIT 1 FOR UPDATE SKIP LOCKED);
    IF FOUND THEN
      RETURN true;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CGS01';
  EXCEPTION WHEN SQLSTATE 'CGS01' THEN
    NULL;
  END;
  UPDATE store_listing_shards SET sold = sold + 1
   WHERE listing_id = p_listing AND (cap IS NULL OR sold < cap) AND shard = (
     SELECT s.shard FROM store_listing_shards s WHERE s.listing_id = p_listing AND (s.cap IS NULL OR s.sold < s.cap)
      ORDER BY s.shard LIMIT 1 FOR UPDATE);
  RETURN FOUND;
END $$`;

const STEP_6 = '  -- 6. The supply, last:';
const FUNCTION_END = 'END $$';

/** store_purchase_item with its step 6 (the supply takes) replaced by `step6`. */
function withStep6(step6: string): string {
  const start = TAKES_INLINE.indexOf(STEP_6);
  const end = TAKES_INLINE.lastIndexOf(FUNCTION_END);
  if (start < 0 || end < start) throw new Error('SupplyTakeFunctions: step 6 of store_purchase_item not found');
  return TAKES_INLINE.slice(0, start).replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION') + step6 + TAKES_INLINE.slice(end);
}

const STEP_6_CALLS = `${STEP_6} the item's units, then one unit of the listing (the functions
  --    InventoryRepository.takeSupply and StorePurchaseRepository.sell call): each first from a
  --    shard no other purchase holds, from the caller's random start, and only when none had stock
  --    waiting for the holders, so a sale is refused only when the shards together are out.
  IF NOT cgs_take_item_supply(l.item_id, l.quantity, p_item_shard) THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: item_sold_out';
  END IF;
  IF NOT cgs_take_listing_unit(p_listing, p_listing_shard) THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: sold_out';
  END IF;
`;

export class SupplyTakeFunctions1795717161396 implements MigrationInterface {
  name = 'SupplyTakeFunctions1795717161396';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(TAKE_ITEM_SUPPLY);
    await queryRunner.query(TAKE_LISTING_UNIT);
    await queryRunner.query(withStep6(STEP_6_CALLS));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(TAKES_INLINE.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await queryRunner.query('DROP FUNCTION cgs_take_listing_unit(uuid, int)');
    await queryRunner.query('DROP FUNCTION cgs_take_item_supply(uuid, int, int)');
  }
}
