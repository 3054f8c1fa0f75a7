/**
 * The statements the limit programs send: the service's own, copied as text so that a limit
 * program depends on nothing of the service. test/e2e/bench-limit.e2e-spec.ts runs the
 * service's request and fails when what it sends differs from these (spaces aside).
 */

/**
 * The outbox's piece of a hot statement (`OutboxRepository.insertPiece`, without NATS): the events
 * of JSON parameter `$first` written, `nats_pending` `$first + 1`, when `onlyIf` holds and a webhook
 * subscription of the tenant takes them, with `merge` added to each payload, and their deliveries.
 */
const outboxPiece = (first: number, merge: string, onlyIf: string) => ` outbox_rows AS (
 INSERT INTO outbox_events (id, tenant_id, type, version, occurred_at, payload, nats_pending)
 SELECT e.id, e.tenant_id, e.type, e.version, e.occurred_at, e.payload || ${merge}, $${first + 1}
 FROM jsonb_to_recordset($${first}::jsonb) AS e(id uuid, tenant_id uuid, type varchar, version smallint, occurred_at timestamptz, payload jsonb)
 WHERE (${onlyIf}) AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.tenant_id = e.tenant_id AND s.active AND (e.type = ANY (s.event_types) OR '*' = ANY (s.event_types)))
 RETURNING id, tenant_id, type, occurred_at),
 outbox_deliveries AS (
 INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
 SELECT o.tenant_id, s.id, o.id, 'pending', 0, o.occurred_at, o.occurred_at, o.occurred_at
 FROM outbox_rows o JOIN webhook_subscriptions s ON s.tenant_id = o.tenant_id AND s.active AND (o.type = ANY (s.event_types) OR '*' = ANY (s.event_types))
 RETURNING 1)`;

/**
 * A returning token login (`AuthRepository.returningLogin`, the nonce variant; without NATS, so
 * its `user.logged_in` event is written only when a webhook subscription takes it): the identity
 * found, the token's nonce claimed, the identity touched, the session's refresh token stored and
 * the event written, in one autocommit statement. $14 is the event as JSON, $15 `nats_pending`.
 */
export const RETURNING_TOKEN_LOGIN = `WITH i AS (SELECT user_id FROM identities WHERE tenant_id = $1 AND provider = $2 AND subject_id = $3),
 n AS (INSERT INTO used_nonces (tenant_id, kind, nonce, expires_at) SELECT $1, $11, $12, $13 WHERE EXISTS (SELECT 1 FROM i)
 ON CONFLICT (tenant_id, kind, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
 WHERE used_nonces.expires_at < $4
 RETURNING 1),
 u AS (
 UPDATE identities SET last_login_at = $4, updated_at = $4,
 id_token_enc = COALESCE($5, id_token_enc), access_token_enc = COALESCE($6, access_token_enc), refresh_token_enc = COALESCE($7, refresh_token_enc)
 WHERE tenant_id = $1 AND provider = $2 AND subject_id = $3 AND EXISTS (SELECT 1 FROM n)
 RETURNING user_id),
 r AS (
 INSERT INTO refresh_tokens (id, token_hash, user_id, tenant_id, expires_at)
 SELECT $8, $9, u.user_id, $1, $10 FROM u
 RETURNING user_id),
${outboxPiece(14, "jsonb_build_object('userId', (SELECT user_id FROM r))", 'EXISTS (SELECT 1 FROM r)')}
 SELECT EXISTS (SELECT 1 FROM i) AS known, EXISTS (SELECT 1 FROM n) AS fresh, (SELECT user_id FROM r) AS user_id,
 (SELECT count(*) FROM outbox_deliveries)::int AS deliveries`;

/**
 * An XP grant (`LedgerRepository.appendCredit` with the outbox's piece, without NATS): the user
 * and type checked in the tenant and the live seasons found ($1-$6), the ledger entry claiming its
 * idempotency key, the balance, the rank counters, the season scores and their counters, and the
 * `resource.credited` event ($15, `nats_pending` $16), in one autocommit statement.
 */
export const GRANT = `WITH t AS (SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND tenant_id = $3) AS user_ok,
 (SELECT kind FROM resource_types WHERE id = $2 AND tenant_id = $3) AS type_kind,
 (SELECT array_agg(s.id ORDER BY s.id) FROM seasons s
 WHERE s.resource_type_id = $2 AND s.ends_at > $4 AND s.starts_at <= $4 AND s.tenant_id = $3
 AND ((s.reasons IS NULL AND $5 <> 'season_reward') OR $5 = ANY (s.reasons))
 AND (s.quest_ids IS NULL OR ($5 = 'quest_completion' AND $6 = ANY (s.quest_ids::text[])))) AS season_ids),
 e AS (
 INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
 SELECT $7, $8, $9, $10, $10, $11, $12, $13, $14 FROM t WHERE t.user_ok AND t.type_kind IS NOT NULL
 ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
 RETURNING id, created_at),
 b AS (
 INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
 SELECT $8, $9, $7, $10, $10, $14, $14 FROM e
 ON CONFLICT (resource_type_id, user_id) DO UPDATE SET balance = resource_balances.balance + EXCLUDED.balance,
 earned = resource_balances.earned + EXCLUDED.earned, earned_at = EXCLUDED.earned_at, updated_at = EXCLUDED.updated_at
 RETURNING balance, earned),
 d AS (
 INSERT INTO resource_rank_bucket_deltas (resource_type_id, level, bucket, delta)
 SELECT $8, l.level, c.bucket, c.delta
 FROM b, generate_series(0, 13) AS l(level),
 LATERAL (SELECT (b.earned - $10) >> (4 * l.level), (b.earned) >> (4 * l.level)) AS m(from_bucket, to_bucket),
 LATERAL (VALUES (m.from_bucket, -1), (m.to_bucket, 1)) AS c(bucket, delta)
 WHERE m.from_bucket <> m.to_bucket AND c.bucket > 0),
 s AS (
 INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
 SELECT sid, $9, $7, $10, $14 FROM e, t, unnest(t.season_ids) AS sid ORDER BY sid
 ON CONFLICT (season_id, user_id) DO UPDATE SET score = season_scores.score + EXCLUDED.score, reached_at = EXCLUDED.reached_at
 RETURNING season_id, score),
 sd AS (
 INSERT INTO resource_rank_bucket_deltas (resource_type_id, level, bucket, delta)
 SELECT s.season_id, l.level, c.bucket, c.delta
 FROM s, generate_series(0, 13) AS l(level),
 LATERAL (SELECT (GREATEST(s.score - $10, 0)) >> (4 * l.level), (GREATEST(s.score, 0)) >> (4 * l.level)) AS m(from_bucket, to_bucket),
 LATERAL (VALUES (m.from_bucket, -1), (m.to_bucket, 1)) AS c(bucket, delta)
 WHERE m.from_bucket <> m.to_bucket AND c.bucket > 0),
${outboxPiece(15, "jsonb_build_object('kind', (SELECT type_kind FROM t), 'balance', (SELECT balance FROM b))", 'EXISTS (SELECT 1 FROM e)')}
 SELECT t.user_ok, t.type_kind, e.id, e.created_at, b.balance, b.earned,
 (SELECT array_agg(season_id ORDER BY season_id) FROM s) AS season_ids,
 (SELECT array_agg(score::text ORDER BY season_id) FROM s) AS season_scores,
 (SELECT count(*) FROM outbox_deliveries)::int AS deliveries
 FROM t LEFT JOIN e ON true LEFT JOIN b ON true`;

/**
 * The purchase of an item listing without requirements (`StorePurchaseRepository.purchaseItem`
 * with the outbox's piece, without NATS): the database function `store_purchase_item` ($1-$11:
 * tenant, user, listing, purchase id, nonce, fingerprint, time, item shard, listing shard, the
 * notifications and the price as JSON) and the three events ($12, `nats_pending` $13), merged
 * with what only the function knows (the grant's id, each debit's balance).
 */
export const PURCHASE_ITEM = `WITH r AS (SELECT created_at, community_id, item_id, quantity, price, grant_id, debits
 FROM store_purchase_item($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)),
${outboxPiece(
  12,
  `CASE e.type
 WHEN 'inventory.item_granted' THEN jsonb_build_object('grantId', (SELECT grant_id FROM r))
 WHEN 'resource.debited' THEN COALESCE((SELECT d FROM r, jsonb_array_elements(r.debits) AS d
 WHERE lower(d->>'resourceTypeId') = lower(e.payload->>'resourceTypeId') LIMIT 1), '{}'::jsonb)
 ELSE '{}'::jsonb END`,
  '(SELECT created_at FROM r) IS NOT NULL',
)}
 SELECT r.*, (SELECT count(*) FROM outbox_deliveries)::int AS deliveries FROM r`;

/**
 * The management API's audit entries (`AuditLogRepository.insertMany`): every write the API key
 * reached, gathered for 100 ms (at most 500 a statement) into one multi-row INSERT.
 */
export const AUDIT_BATCH = `INSERT INTO admin_audit_log (tenant_id, actor, method, route, target, body, status_code, outcome, aborted, created_at)
 SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::jsonb[], $7::smallint[],
 $8::varchar[], $9::boolean[], $10::timestamptz[])`;

/** The expired login nonces' purge (`AuthRepository.purgeNonces`), run by one login in a hundred. */
export const PURGE_NONCES = 'DELETE FROM used_nonces WHERE expires_at < $1';

/** Spaces collapsed: how a statement is compared with what the service sends. */
export const normalized = (sql: string): string => sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
