import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_PURCHASE_ITEM as WITHOUT_PRICE } from './1795603758601-StorePurchaseFunction.js';

// Written by hand (TypeORM does not model functions). store_purchase_item takes the price the
// caller read (p_price) and raises `changed` when the listing's is another: the caller built the
// purchase's events (outbox rows written by the same statement) from that price, so a purchase at
// another price takes the general path, where the purchase and its events commit together. Before,
// such a purchase committed without its events and the caller wrote them after the commit, where a
// crash lost them and a retry (a replay) did not write them. Otherwise as StorePurchaseFunction.
// docs/decisions.md ("Purchases in one statement").
export const STORE_PURCHASE_ITEM = `
CREATE FUNCTION store_purchase_item(
  p_tenant uuid, p_user uuid, p_listing uuid, p_purchase uuid, p_nonce varchar, p_fingerprint varchar,
  p_now timestamptz, p_item_shard int, p_listing_shard int, p_notifications jsonb, p_price jsonb,
  OUT created_at timestamptz, OUT community_id uuid, OUT item_id uuid, OUT quantity int, OUT price jsonb,
  OUT grant_id uuid, OUT debits jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  l record;
  c record;
  item_community uuid;
  have bigint;
  after_balance bigint;
  type_kind varchar;
BEGIN
  -- The listing, locked as every purchase locks it (the purchase row's foreign key): an operator's
  -- change (FOR UPDATE) waits for the purchases in flight, so what is read here holds to the commit.
  SELECT s.community_id, s.kind, s.item_id, s.quantity, s.price, s.per_user_limit, s.active, s.starts_at, s.ends_at,
         s.requirement_ids, s.prize_id
    INTO l FROM store_listings s WHERE s.id = p_listing AND s.tenant_id = p_tenant FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: listing_not_found';
  END IF;
  -- Changed since the caller read it into something this function does not sell, or to another
  -- price than the one the caller read (its events, written by the same statement, say that one):
  -- the caller takes the general path, which writes the purchase and its events in one transaction.
  IF l.kind <> 'item' OR l.item_id IS NULL OR l.requirement_ids <> '[]'::jsonb OR l.prize_id IS NOT NULL
     OR l.price IS DISTINCT FROM p_price THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: changed';
  END IF;
  community_id := l.community_id;
  item_id := l.item_id;
  quantity := l.quantity;
  price := l.price;
  debits := '[]'::jsonb;

  -- 1. The nonce: a concurrent duplicate waits on the unique index, then finds it taken (replay:
  --    no row written, created_at null).
  INSERT INTO store_purchases AS p (id, tenant_id, user_id, listing_id, community_id, nonce, fingerprint, kind, item_id,
                                    prize_id, resource_type_id, quantity, price, requirement_data_encrypted, created_at)
  VALUES (p_purchase, p_tenant, p_user, p_listing, l.community_id, p_nonce, p_fingerprint, 'item', l.item_id,
          NULL, NULL, l.quantity, l.price, NULL, p_now)
  ON CONFLICT (tenant_id, user_id, nonce) DO NOTHING
  RETURNING p.created_at INTO created_at;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  IF NOT l.active THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: closed';
  END IF;
  IF (l.starts_at IS NOT NULL AND l.starts_at > p_now) OR (l.ends_at IS NOT NULL AND l.ends_at <= p_now) THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: closed';
  END IF;

  -- The buyer's balance rows of the price, locked in resource-type-id order before anything else
  -- of the user (as LedgerService.lockBalances in the general path): no deadlock between them.
  PERFORM 1 FROM resource_balances b
    WHERE b.user_id = p_user AND b.resource_type_id IN (SELECT (e->>'resourceTypeId')::uuid FROM jsonb_array_elements(l.price) AS e)
    ORDER BY b.resource_type_id FOR UPDATE;

  -- 2. The per-user limit (before the price: a user at the limit is told so, whatever the balance).
  INSERT INTO store_purchase_counts AS n (listing_id, user_id, tenant_id, count) VALUES (p_listing, p_user, p_tenant, 1)
  ON CONFLICT (listing_id, user_id) DO UPDATE SET count = n.count + 1
   WHERE l.per_user_limit IS NULL OR n.count + 1 <= l.per_user_limit;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: purchase_limit_reached',
      DETAIL = json_build_object('perUserLimit', l.per_user_limit)::text;
  END IF;

  -- 3. The price through the ledger, in resource-type-id order (LedgerService.debit: the balance
  --    never below zero, one append-only entry per debit, earned untouched, so no rank change).
  FOR c IN SELECT (e->>'resourceTypeId')::uuid AS type_id, (e->>'amount')::bigint AS amount
           FROM jsonb_array_elements(l.price) AS e ORDER BY 1 LOOP
    UPDATE resource_balances b SET balance = b.balance - c.amount, updated_at = p_now
      FROM resource_types t
     WHERE b.resource_type_id = c.type_id AND b.user_id = p_user AND b.balance >= c.amount AND t.id = b.resource_type_id
    RETURNING b.balance, t.kind INTO after_balance, type_kind;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM resource_types t WHERE t.id = c.type_id AND t.tenant_id = p_tenant) THEN
        RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: resource_type_not_found',
          DETAIL = json_build_object('resourceTypeId', c.type_id)::text;
      END IF;
      SELECT b.balance INTO have FROM resource_balances b WHERE b.resource_type_id = c.type_id AND b.user_id = p_user;
      RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: insufficient_balance',
        DETAIL = json_build_object('resourceTypeId', c.type_id, 'required', c.amount, 'balance', COALESCE(have, 0))::text;
    END IF;
    INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
    VALUES (p_tenant, c.type_id, p_user, -c.amount, 0, 'store_purchase', p_purchase::text, NULL, p_now);
    debits := debits || jsonb_build_array(jsonb_build_object(
      'resourceTypeId', c.type_id, 'kind', type_kind, 'amount', c.amount, 'balance', after_balance));
  END LOOP;

  -- 4. The notifications the caller built (NotificationsService.prepare): purchase_completed, item_granted.
  INSERT INTO notifications (tenant_id, user_id, community_id, type, title, data, read_at, created_at)
  SELECT p_tenant, p_user, x.community_id, x.type, x.title, x.data, NULL, x.created_at
    FROM jsonb_to_recordset(p_notifications) AS x(community_id uuid, type varchar, title varchar, data jsonb, created_at timestamptz);

  -- 5. The grant (InventoryService.grantItem: the grant's record, the holding).
  SELECT i.community_id INTO item_community FROM inventory_items i WHERE i.id = l.item_id AND i.tenant_id = p_tenant;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: item_not_found';
  END IF;
  INSERT INTO item_grants (tenant_id, user_id, item_id, quantity, reason, reference, idempotency_key, created_at)
  VALUES (p_tenant, p_user, l.item_id, l.quantity, 'store_purchase', p_purchase::text, NULL, p_now)
  RETURNING id INTO grant_id;
  INSERT INTO user_items AS h (user_id, item_id, tenant_id, community_id, quantity, acquired_at, updated_at)
  VALUES (p_user, l.item_id, p_tenant, item_community, l.quantity, p_now, p_now)
  ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = h.quantity + EXCLUDED.quantity, updated_at = EXCLUDED.updated_at;

  -- 6. The supply, last: the item's units (InventoryRepository.takeSupplyQuery, then
  --    takeSupplyWaiting), then one unit of the listing (StorePurchaseRepository.sell, takeShard).
  --    First from a shard no other purchase holds (SKIP LOCKED), from a random start; only when none
  --    had stock, waiting for the holders (a rollback gives units back), so a sale is refused only
  --    when the shards together are out.
  UPDATE inventory_item_shards SET granted = granted + l.quantity
   WHERE inventory_item_shards.item_id = l.item_id AND (cap IS NULL OR granted + l.quantity <= cap) AND shard = (
     SELECT s.shard FROM inventory_item_shards s WHERE s.item_id = l.item_id AND (s.cap IS NULL OR s.granted + l.quantity <= s.cap)
      ORDER BY s.shard >= p_item_shard DESC, s.shard LIMIT 1 FOR UPDATE SKIP LOCKED);
  IF NOT FOUND THEN
    UPDATE inventory_item_shards SET granted = granted + l.quantity
     WHERE inventory_item_shards.item_id = l.item_id AND (cap IS NULL OR granted + l.quantity <= cap) AND shard = (
       SELECT s.shard FROM inventory_item_shards s WHERE s.item_id = l.item_id AND (s.cap IS NULL OR s.granted + l.quantity <= s.cap)
        ORDER BY s.shard >= p_item_shard DESC, s.shard LIMIT 1 FOR UPDATE);
    IF NOT FOUND AND l.quantity > 1 THEN
      -- No one shard has enough: spread over several, all locked in shard order.
      WITH locked AS (
        SELECT s.shard, s.cap - s.granted AS stock FROM inventory_item_shards s
         WHERE s.item_id = l.item_id AND s.cap IS NOT NULL ORDER BY s.shard FOR UPDATE),
      plan AS (
        SELECT k.shard, LEAST(k.stock, l.quantity - COALESCE(SUM(k.stock) OVER (ORDER BY k.shard ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::int AS take
          FROM locked k WHERE (SELECT SUM(stock) FROM locked) >= l.quantity)
      UPDATE inventory_item_shards s SET granted = s.granted + plan.take FROM plan
       WHERE s.item_id = l.item_id AND s.shard = plan.shard AND plan.take > 0;
    END IF;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: item_sold_out';
    END IF;
  END IF;

  UPDATE store_listing_shards SET sold = sold + 1
   WHERE listing_id = p_listing AND (cap IS NULL OR sold < cap) AND shard = (
     SELECT s.shard FROM store_listing_shards s WHERE s.listing_id = p_listing AND (s.cap IS NULL OR s.sold < s.cap)
      ORDER BY s.shard >= p_listing_shard DESC, s.shard LIMIT 1 FOR UPDATE SKIP LOCKED);
  IF NOT FOUND THEN
    UPDATE store_listing_shards SET sold = sold + 1
     WHERE listing_id = p_listing AND (cap IS NULL OR sold < cap) AND shard = (
       SELECT s.shard FROM store_listing_shards s WHERE s.listing_id = p_listing AND (s.cap IS NULL OR s.sold < s.cap)
        ORDER BY s.shard >= p_listing_shard DESC, s.shard LIMIT 1 FOR UPDATE);
    IF NOT FOUND THEN
      RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: sold_out';
    END IF;
  END IF;
END $$`;

export class StorePurchasePriceCheck1795649011420 implements MigrationInterface {
  name = 'StorePurchasePriceCheck1795649011420';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION store_purchase_item(uuid, uuid, uuid, uuid, varchar, varchar, timestamptz, int, int, jsonb)');
    await queryRunner.query(STORE_PURCHASE_ITEM);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION store_purchase_item(uuid, uuid, uuid, uuid, varchar, varchar, timestamptz, int, int, jsonb, jsonb)');
    await queryRunner.query(WITHOUT_PRICE);
  }
}
