import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SupplyTakeFunctions1795717161396 } from './1795717161396-SupplyTakeFunctions.js';

// Written by hand (TypeORM does not model functions). store_purchase_item wrote the tables of
// resources, notifications and inventory itself; each of those steps becomes a function of the
// module that owns the tables, as the supply takes already were, and store_purchase_item (store)
// calls them in the same order, with the same statements, locks, refusals and results. A database
// function declares its owner with `COMMENT ON FUNCTION … IS 'owner: <module>'`, and its body names
// only that module's tables (test/architecture/sql-ownership.spec.ts); this migration declares the
// owners of the functions created before it. plpgsql throughout: PostgreSQL 15 keeps a plpgsql
// function's plans for the session, where a LANGUAGE sql one with an INSERT is planned at each call.
// docs/decisions.md ("Purchases in one statement").

/** Resources: the buyer's balance rows of a price, locked in resource-type-id order (as LedgerService.lockBalances). */
const LOCK_BALANCES = `
CREATE FUNCTION cgs_lock_balances(p_user uuid, p_price jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM resource_balances b
    WHERE b.user_id = p_user AND b.resource_type_id IN (SELECT (e->>'resourceTypeId')::uuid FROM jsonb_array_elements(p_price) AS e)
    ORDER BY b.resource_type_id FOR UPDATE;
END $$`;

/**
 * Resources: a price debited through the ledger (as LedgerService.debit). A refusal is returned,
 * not raised, for the caller to raise in its own terms: the debits made before it roll back with it.
 */
const DEBIT_PRICE = `
CREATE FUNCTION cgs_debit_price(
  p_tenant uuid, p_user uuid, p_price jsonb, p_reason varchar, p_reference varchar, p_now timestamptz,
  OUT debits jsonb, OUT refusal varchar, OUT refusal_detail json)
LANGUAGE plpgsql AS $$
DECLARE
  c record;
  have bigint;
  after_balance bigint;
  type_kind varchar;
BEGIN
  debits := '[]'::jsonb;
  -- In resource-type-id order: the balance never below zero, one append-only entry per debit,
  -- earned untouched, so no rank change.
  FOR c IN SELECT (e->>'resourceTypeId')::uuid AS type_id, (e->>'amount')::bigint AS amount
           FROM jsonb_array_elements(p_price) AS e ORDER BY 1 LOOP
    UPDATE resource_balances b SET balance = b.balance - c.amount, updated_at = p_now
      FROM resource_types t
     WHERE b.resource_type_id = c.type_id AND b.user_id = p_user AND b.balance >= c.amount AND t.id = b.resource_type_id
    RETURNING b.balance, t.kind INTO after_balance, type_kind;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM resource_types t WHERE t.id = c.type_id AND t.tenant_id = p_tenant) THEN
        refusal := 'resource_type_not_found';
        refusal_detail := json_build_object('resourceTypeId', c.type_id);
        RETURN;
      END IF;
      SELECT b.balance INTO have FROM resource_balances b WHERE b.resource_type_id = c.type_id AND b.user_id = p_user;
      refusal := 'insufficient_balance';
      refusal_detail := json_build_object('resourceTypeId', c.type_id, 'required', c.amount, 'balance', COALESCE(have, 0));
      RETURN;
    END IF;
    INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
    VALUES (p_tenant, c.type_id, p_user, -c.amount, 0, p_reason, p_reference, NULL, p_now);
    debits := debits || jsonb_build_array(jsonb_build_object(
      'resourceTypeId', c.type_id, 'kind', type_kind, 'amount', c.amount, 'balance', after_balance));
  END LOOP;
END $$`;

/** Notifications: rows a caller built with NotificationsService.prepare, written for one user. */
const INSERT_NOTIFICATIONS = `
CREATE FUNCTION cgs_insert_notifications(p_tenant uuid, p_user uuid, p_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (tenant_id, user_id, community_id, type, title, data, read_at, created_at)
  SELECT p_tenant, p_user, x.community_id, x.type, x.title, x.data, NULL, x.created_at
    FROM jsonb_to_recordset(p_rows) AS x(community_id uuid, type varchar, title varchar, data jsonb, created_at timestamptz);
END $$`;

/** Inventory: an item granted (as InventoryService.grantItem: the grant's record, the holding); null when the tenant has no such item. */
const GRANT_ITEM = `
CREATE FUNCTION cgs_grant_item(
  p_tenant uuid, p_user uuid, p_item uuid, p_quantity int, p_reason varchar, p_reference varchar, p_now timestamptz)
RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
  item_community uuid;
  granted uuid;
BEGIN
  SELECT i.community_id INTO item_community FROM inventory_items i WHERE i.id = p_item AND i.tenant_id = p_tenant;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO item_grants (tenant_id, user_id, item_id, quantity, reason, reference, idempotency_key, created_at)
  VALUES (p_tenant, p_user, p_item, p_quantity, p_reason, p_reference, NULL, p_now)
  RETURNING id INTO granted;
  INSERT INTO user_items AS h (user_id, item_id, tenant_id, community_id, quantity, acquired_at, updated_at)
  VALUES (p_user, p_item, p_tenant, item_community, p_quantity, p_now, p_now)
  ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = h.quantity + EXCLUDED.quantity, updated_at = EXCLUDED.updated_at;
  RETURN granted;
END $$`;

// Lock order and checks as before: the listing (key share, as the purchase row's foreign key takes
// it), the purchase row (nonce), the buyer's balances in resource-type-id order, the (listing, user)
// counter, the debits, the notifications, the grant and holding, then the supply shards, item first.
const STORE_PURCHASE_ITEM = `
CREATE OR REPLACE FUNCTION store_purchase_item(
  p_tenant uuid, p_user uuid, p_listing uuid, p_purchase uuid, p_nonce varchar, p_fingerprint varchar,
  p_now timestamptz, p_item_shard int, p_listing_shard int, p_notifications jsonb, p_price jsonb,
  OUT created_at timestamptz, OUT community_id uuid, OUT item_id uuid, OUT quantity int, OUT price jsonb,
  OUT grant_id uuid, OUT debits jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  l record;
  d record;
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

  -- The buyer's balances (resources), locked before anything else of the user, as the general path
  -- locks them: no deadlock between the two.
  PERFORM cgs_lock_balances(p_user, l.price);

  -- 2. The per-user limit (before the price: a user at the limit is told so, whatever the balance).
  INSERT INTO store_purchase_counts AS n (listing_id, user_id, tenant_id, count) VALUES (p_listing, p_user, p_tenant, 1)
  ON CONFLICT (listing_id, user_id) DO UPDATE SET count = n.count + 1
   WHERE l.per_user_limit IS NULL OR n.count + 1 <= l.per_user_limit;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: purchase_limit_reached',
      DETAIL = json_build_object('perUserLimit', l.per_user_limit)::text;
  END IF;

  -- 3. The price through the ledger (resources); its refusal raised here rolls its debits back.
  d := cgs_debit_price(p_tenant, p_user, l.price, 'store_purchase', p_purchase::text, p_now);
  IF d.refusal IS NOT NULL THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: ' || d.refusal, DETAIL = d.refusal_detail::text;
  END IF;
  debits := d.debits;

  -- 4. The notifications the caller built (notifications): purchase_completed, item_granted.
  PERFORM cgs_insert_notifications(p_tenant, p_user, p_notifications);

  -- 5. The grant (inventory: the grant's record, the holding).
  grant_id := cgs_grant_item(p_tenant, p_user, l.item_id, l.quantity, 'store_purchase', p_purchase::text, p_now);
  IF grant_id IS NULL THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: item_not_found';
  END IF;

  -- 6. The supply, last: the item's units (inventory), then one unit of the listing: each first
  --    from a shard no other purchase holds, from the caller's random start, and only when none had
  --    stock waiting for the holders, so a sale is refused only when the shards together are out.
  IF NOT cgs_take_item_supply(l.item_id, l.quantity, p_item_shard) THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: item_sold_out';
  END IF;
  IF NOT cgs_take_listing_unit(p_listing, p_listing_shard) THEN
    RAISE EXCEPTION USING MESSAGE = 'store_purchase_item: sold_out';
  END IF;
END $$`;

// Each function's owner: the module whose tables its body names. The functions created before this
// migration are declared here too; the later ones declare theirs in the migration that creates them.
const EARLIER_OWNERS = [
  "COMMENT ON FUNCTION cgs_current_xid() IS 'owner: notifications'",
  "COMMENT ON FUNCTION cgs_end_sessions_of_deleted_users() IS 'owner: access'",
  "COMMENT ON FUNCTION cgs_take_item_supply(uuid, int, int) IS 'owner: inventory'",
  "COMMENT ON FUNCTION cgs_take_listing_unit(uuid, int) IS 'owner: store'",
  "COMMENT ON FUNCTION store_purchase_item(uuid, uuid, uuid, uuid, varchar, varchar, timestamptz, int, int, jsonb, jsonb) IS 'owner: store'",
];
const NEW_OWNERS = [
  "COMMENT ON FUNCTION cgs_lock_balances(uuid, jsonb) IS 'owner: resources'",
  "COMMENT ON FUNCTION cgs_debit_price(uuid, uuid, jsonb, varchar, varchar, timestamptz) IS 'owner: resources'",
  "COMMENT ON FUNCTION cgs_insert_notifications(uuid, uuid, jsonb) IS 'owner: notifications'",
  "COMMENT ON FUNCTION cgs_grant_item(uuid, uuid, uuid, int, varchar, varchar, timestamptz) IS 'owner: inventory'",
];

/** store_purchase_item as SupplyTakeFunctions left it: the statement its up() runs to replace it. */
async function previousPurchaseItem(): Promise<string> {
  const statements: string[] = [];
  const recorder = { query: async (sql: string) => void statements.push(sql) } as unknown as QueryRunner;
  await new SupplyTakeFunctions1795717161396().up(recorder);
  const previous = statements.find((s) => s.trimStart().startsWith('CREATE OR REPLACE FUNCTION store_purchase_item('));
  if (!previous) throw new Error('PurchaseFunctionsByModule: the previous store_purchase_item not found');
  return previous;
}

export class PurchaseFunctionsByModule1796200000000 implements MigrationInterface {
  name = 'PurchaseFunctionsByModule1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(LOCK_BALANCES);
    await queryRunner.query(DEBIT_PRICE);
    await queryRunner.query(INSERT_NOTIFICATIONS);
    await queryRunner.query(GRANT_ITEM);
    await queryRunner.query(STORE_PURCHASE_ITEM);
    for (const comment of [...EARLIER_OWNERS, ...NEW_OWNERS]) await queryRunner.query(comment);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(await previousPurchaseItem());
    for (const comment of EARLIER_OWNERS) await queryRunner.query(comment.replace(/ IS '[^']*'$/, ' IS NULL'));
    await queryRunner.query('DROP FUNCTION cgs_grant_item(uuid, uuid, uuid, int, varchar, varchar, timestamptz)');
    await queryRunner.query('DROP FUNCTION cgs_insert_notifications(uuid, uuid, jsonb)');
    await queryRunner.query('DROP FUNCTION cgs_debit_price(uuid, uuid, jsonb, varchar, varchar, timestamptz)');
    await queryRunner.query('DROP FUNCTION cgs_lock_balances(uuid, jsonb)');
  }
}
