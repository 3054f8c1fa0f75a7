import { Injectable } from '@nestjs/common';
import { preparedQuery } from '../database/prepared-query.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql, onConstraintViolation, updatedRows } from '../database/repository.js';
import { DomainError } from '../common/errors/domain-error.js';
import { EXAMPLE_OUTBOX_RECORD, OutboxRepository, PIECE_DELIVERIES, type OutboxRecord } from '../integrations/outbox.repository.js';
import { ResourceLedgerEntry } from './entities/resource-ledger-entry.entity.js';
import type { ResourceKind } from './entities/resource-type.entity.js';
import { targetsParams, targetsSelect } from './ledger-targets.read-model.js';
import { RANK_BITS, RANK_LEVELS, type BucketChange } from './rank-buckets.js';
import { ResourceErrors } from './resources.errors.js';

/** An entry claims its idempotency key: a second entry under the key is not written (a concurrent one waits, then finds it taken). */
const CLAIM_KEY = 'ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING';

/** A credit raises the balance row (created at the credit when missing) and its earned total. */
const ADD_TO_BALANCE = `ON CONFLICT (resource_type_id, user_id) DO UPDATE SET
         balance = resource_balances.balance + EXCLUDED.balance,
         earned = resource_balances.earned + EXCLUDED.earned,
         earned_at = EXCLUDED.earned_at, updated_at = EXCLUDED.updated_at`;

/** A season score raised (the row created at its first entry). */
const ADD_TO_SEASON_SCORE =
  'ON CONFLICT (season_id, user_id) DO UPDATE SET score = season_scores.score + EXCLUDED.score, reached_at = EXCLUDED.reached_at';

/** The bucket counters' changes of a move from `from` to `to` (SQL of bigints) on board `board`, `bucketChanges`'s rule in SQL. */
function bucketDeltas(board: string, rows: string, from: string, to: string): string {
  return `INSERT INTO resource_rank_bucket_deltas (resource_type_id, level, bucket, delta)
         SELECT ${board}, l.level, c.bucket, c.delta
         FROM ${rows}, generate_series(0, ${RANK_LEVELS - 1}) AS l(level),
           LATERAL (SELECT (${from}) >> (${RANK_BITS} * l.level), (${to}) >> (${RANK_BITS} * l.level)) AS m(from_bucket, to_bucket),
           LATERAL (VALUES (m.from_bucket, -1), (m.to_bucket, 1)) AS c(bucket, delta)
         WHERE m.from_bucket <> m.to_bucket AND c.bucket > 0`;
}

/**
 * `LedgerRepository.appendCredit`'s statement, with the CTEs of `more` (the outbox's piece) when
 * given. $1-$6 the targets (`targetsParams`); $7 tenant, $8 resource type, $9 user, $10 amount,
 * $11 reason, $12 reference, $13 idempotency key, $14 time. The rank counters move from `earned -
 * amount` to `earned` at each level; a live season's board from its score before to its score
 * after, each taken as 0 below 0 (only positive scores are ranked), like `countInSeasons`.
 */
const appendCreditSql = (more?: { ctes: string; select: string }) => `WITH t AS (SELECT ${targetsSelect(1)}),
       e AS (
         INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
         SELECT $7, $8, $9, $10, $10, $11, $12, $13, $14 FROM t WHERE t.user_ok AND t.type_kind IS NOT NULL
         ${CLAIM_KEY}
         RETURNING id, created_at),
       b AS (
         INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
         SELECT $8, $9, $7, $10, $10, $14, $14 FROM e
         ${ADD_TO_BALANCE}
         RETURNING balance, earned),
       d AS (
         ${bucketDeltas('$8', 'b', 'b.earned - $10', 'b.earned')}),
       s AS (
         INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
         SELECT sid, $9, $7, $10, $14 FROM e, t, unnest(t.season_ids) AS sid ORDER BY sid
         ${ADD_TO_SEASON_SCORE}
         RETURNING season_id, score),
       sd AS (
         ${bucketDeltas('s.season_id', 's', 'GREATEST(s.score - $10, 0)', 'GREATEST(s.score, 0)')})${more ? `,\n       ${more.ctes}` : ''}
       SELECT t.user_ok, t.type_kind, e.id, e.created_at, b.balance, b.earned,
         (SELECT array_agg(season_id ORDER BY season_id) FROM s) AS season_ids,
         (SELECT array_agg(score::text ORDER BY season_id) FROM s) AS season_scores,
         ${more ? more.select : '0'} AS deliveries
       FROM t LEFT JOIN e ON true LEFT JOIN b ON true`;

/** The statement of a credit without events of its own (built once: its text is also its prepared statement's key). */
const APPEND_CREDIT = appendCreditSql();

/** `appendCredit`'s example for the SQL generator. */
const EXAMPLE_CREDIT = {
  tenantId: DUMMY.tenant,
  resourceTypeId: DUMMY.uuid,
  userId: DUMMY.uuid2,
  amount: 5,
  reason: 'grant',
  reference: null,
  idempotencyKey: 'k',
  createdAt: DUMMY.date,
};

/** The constraint that keeps every amount within what a JSON number carries exactly (2^53 - 1). */
const AMOUNTS_SAFE = { ck_resource_balances_amounts_safe: () => new DomainError(ResourceErrors.amount_too_large) };

export interface EntryRow {
  id: string;
  user_id: string;
  resource_type_id: string;
  delta: string;
  earned_delta: string;
  created_at: Date;
}

/**
 * The ledger's tables: `resource_ledger` (append-only), `resource_balances` and the rank counter
 * deltas. Only LedgerService calls the writers: inside its savepoint, or a credit's one statement
 * on its own (`appendCredit`).
 */
@Injectable()
export class LedgerRepository extends BaseRepository {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly outbox: OutboxRepository,
  ) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async balance(
    tenantId: string,
    userId: string,
    resourceTypeId: string,
    em?: EntityManager,
  ): Promise<{ balance: number; earned: number }> {
    const rows: { balance: string; earned: string }[] = await this.manager(em).query(
      'SELECT balance, earned FROM resource_balances WHERE tenant_id = $1 AND user_id = $2 AND resource_type_id = $3',
      [tenantId, userId, resourceTypeId],
    );
    return rows.length ? { balance: Number(rows[0].balance), earned: Number(rows[0].earned) } : { balance: 0, earned: 0 };
  }

  /** Creates the missing balance rows, then locks all of them in resource-type-id order (`ids` sorted). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2, DUMMY.uuid3], DUMMY.date] })
  async lockBalances(tenantId: string, userId: string, ids: string[], now: Date, em?: EntityManager): Promise<void> {
    const m = this.manager(em);
    await m.query(
      `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
       SELECT t, $2, $3, 0, 0, $4, $4 FROM unnest($1::uuid[]) AS t ORDER BY t
       ON CONFLICT (resource_type_id, user_id) DO NOTHING`,
      [ids, userId, tenantId, now],
    );
    await m.query(
      `SELECT 1 FROM resource_balances WHERE user_id = $1 AND resource_type_id = ANY($2::uuid[]) ORDER BY resource_type_id FOR UPDATE`,
      [userId, ids],
    );
  }

  /**
   * Appends the entry and claims its idempotency key; null when the key was taken (a concurrent
   * duplicate waits on the key, then gets null).
   */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        resourceTypeId: DUMMY.uuid,
        userId: DUMMY.uuid2,
        delta: 5,
        earnedDelta: 5,
        reason: 'grant',
        reference: null,
        idempotencyKey: 'k',
        createdAt: DUMMY.date,
      },
    ],
  })
  async append(
    e: {
      tenantId: string;
      resourceTypeId: string;
      userId: string;
      delta: number;
      earnedDelta: number;
      reason: string;
      reference: string | null;
      idempotencyKey: string | null;
      createdAt: Date;
    },
    em?: EntityManager,
  ): Promise<{ id: string; created_at: Date } | null> {
    const inserted = await preparedQuery<{ id: string; created_at: Date }>(
      this.manager(em),
      `INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ${CLAIM_KEY}
       RETURNING id, created_at`,
      [e.tenantId, e.resourceTypeId, e.userId, e.delta, e.earnedDelta, e.reason, e.reference, e.idempotencyKey, e.createdAt],
    );
    return inserted[0] ?? null;
  }

  /**
   * A credit in one statement: checks its targets (`LedgerTargetsReadModel`'s select: the user and
   * the type in the tenant, the live seasons that take it), appends the entry claiming its
   * idempotency key, adds `amount` to balance and earned (creating the row) and to the score on
   * each live season's board, each step only if the one before it could, and records the rank
   * counters' changes of every move (`bucketChanges`'s rule, in SQL). `entry` null with `userOk`
   * and `typeKind` set: the key was taken (a concurrent duplicate waits on the key, then finds it
   * taken); `after` holds the totals after, `seasons` each season's score after. With `events`
   * (their payloads get the type's `kind` and the `balance` after), the outbox's rows and their
   * webhook deliveries are written by the same statement, only when the entry was. A total beyond
   * 2^53 - 1 writes nothing: 400 `amount_too_large`. Six round trips were one each.
   */
  @GenerateSql({ params: [EXAMPLE_CREDIT] }, { name: 'withEvents', params: [EXAMPLE_CREDIT, undefined, [EXAMPLE_OUTBOX_RECORD]] })
  async appendCredit(
    e: {
      tenantId: string;
      resourceTypeId: string;
      userId: string;
      amount: number;
      reason: string;
      reference: string | null;
      idempotencyKey: string | null;
      createdAt: Date;
    },
    em?: EntityManager,
    events: OutboxRecord[] = [],
  ): Promise<{
    userOk: boolean;
    typeKind: ResourceKind | null;
    entry: { id: string; created_at: Date } | null;
    after: { balance: string; earned: string } | null;
    seasons: { seasonId: string; score: string }[];
    deliveries: number;
  }> {
    type Row = {
      user_ok: boolean;
      type_kind: ResourceKind | null;
      id: string | null;
      created_at: Date | null;
      balance: string | null;
      earned: string | null;
      season_ids: string[] | null;
      season_scores: string[] | null;
      deliveries: number;
    };
    const params = [
      ...targetsParams(e.tenantId, e.userId, e.resourceTypeId, { at: e.createdAt, reason: e.reason, reference: e.reference }),
      e.tenantId,
      e.resourceTypeId,
      e.userId,
      e.amount,
      e.reason,
      e.reference,
      e.idempotencyKey,
      e.createdAt,
    ];
    const piece = events.length
      ? this.outbox.insertPiece(events, params.length + 1, {
          payloadMerge: "jsonb_build_object('kind', (SELECT type_kind FROM t), 'balance', (SELECT balance FROM b))",
          onlyIf: 'EXISTS (SELECT 1 FROM e)',
        })
      : null;
    const sql = piece ? appendCreditSql({ ctes: piece.ctes, select: PIECE_DELIVERIES }) : APPEND_CREDIT;
    const [row] = await onConstraintViolation(
      () => preparedQuery<Row>(this.manager(em), sql, piece ? [...params, ...piece.params] : params),
      AMOUNTS_SAFE,
    );
    return {
      userOk: row.user_ok,
      typeKind: row.type_kind,
      entry: row.id ? { id: row.id, created_at: row.created_at! } : null,
      after: row.balance !== null ? { balance: row.balance, earned: row.earned! } : null,
      seasons: (row.season_ids ?? []).map((seasonId, i) => ({ seasonId, score: row.season_scores![i] })),
      deliveries: row.deliveries,
    };
  }

  /** Takes `amount` from the balance (and `earnedDelta` into earned) unless it would go below zero: null then. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 5, 0, DUMMY.date] })
  async debit(
    _tenantId: string,
    userId: string,
    resourceTypeId: string,
    amount: number,
    earnedDelta: number,
    now: Date,
    em?: EntityManager,
  ): Promise<{ balance: string; earned: string } | null> {
    const after = updatedRows<{ balance: string; earned: string }>(
      await this.manager(em).query(
        `UPDATE resource_balances SET balance = balance - $3, earned = earned + $4,
         earned_at = CASE WHEN $4::bigint <> 0 THEN $5 ELSE earned_at END, updated_at = $5
       WHERE resource_type_id = $1 AND user_id = $2 AND balance >= $3
       RETURNING balance, earned`,
        [resourceTypeId, userId, amount, earnedDelta, now],
      ),
    );
    return after[0] ?? null;
  }

  /** Records the rank counters' changes (folded into the buckets later by RankingService). */
  @GenerateSql({ params: [DUMMY.uuid, [{ level: 0, bucket: 1n, delta: 1 }]] })
  async addBucketDeltas(resourceTypeId: string, changes: BucketChange[], em?: EntityManager): Promise<void> {
    await preparedQuery(
      this.manager(em),
      `INSERT INTO resource_rank_bucket_deltas (resource_type_id, level, bucket, delta)
       SELECT $1, l, b, d FROM unnest($2::smallint[], $3::bigint[], $4::int[]) AS c(l, b, d)`,
      [resourceTypeId, changes.map((c) => c.level), changes.map((c) => c.bucket.toString()), changes.map((c) => c.delta)],
    );
  }

  /**
   * Adds `delta` to the user's score on each of these season boards (creating the rows, in season
   * id order); the scores after.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2, DUMMY.uuid3], 5, DUMMY.date] })
  addSeasonScores(
    tenantId: string,
    userId: string,
    seasonIds: string[],
    delta: number,
    now: Date,
    em?: EntityManager,
  ): Promise<{ season_id: string; score: string }[]> {
    return preparedQuery(
      this.manager(em),
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT s, $2, $3, $4, $5 FROM unnest($1::uuid[]) AS s ORDER BY s
       ${ADD_TO_SEASON_SCORE}
       RETURNING season_id, score::text AS score`,
      [seasonIds, userId, tenantId, delta, now],
    );
  }

  // ---------------------------------------------------------------- batches (LedgerService.creditMany)

  /**
   * `append` for a batch of credits of one resource type, reason and reference, in one statement;
   * the entries inserted (a credit whose idempotency key was taken is not among them).
   */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        resourceTypeId: DUMMY.uuid,
        reason: 'season_reward',
        reference: DUMMY.uuid3,
        createdAt: DUMMY.date,
        credits: [{ userId: DUMMY.uuid2, amount: 5, idempotencyKey: 'k' }],
      },
    ],
  })
  appendCredits(
    e: {
      tenantId: string;
      resourceTypeId: string;
      reason: string;
      reference: string | null;
      createdAt: Date;
      credits: { userId: string; amount: number; idempotencyKey: string }[];
    },
    em?: EntityManager,
  ): Promise<{ id: string; idempotency_key: string; created_at: Date }[]> {
    return this.manager(em).query(
      `INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
       SELECT $1, $2, c.u, c.a, c.a, $3, $4, c.k, $5 FROM unnest($6::uuid[], $7::bigint[], $8::varchar[]) AS c(u, a, k)
       ${CLAIM_KEY}
       RETURNING id, idempotency_key, created_at`,
      [
        e.tenantId,
        e.resourceTypeId,
        e.reason,
        e.reference,
        e.createdAt,
        e.credits.map((c) => c.userId),
        e.credits.map((c) => c.amount),
        e.credits.map((c) => c.idempotencyKey),
      ],
    );
  }

  /** The entries of these idempotency keys (those that exist). */
  @GenerateSql({ params: [DUMMY.tenant, ['k', 'k2']] })
  entriesByKeys(tenantId: string, keys: string[], em?: EntityManager): Promise<(EntryRow & { idempotency_key: string })[]> {
    return this.manager(em).query(
      `SELECT id, user_id, resource_type_id, delta, earned_delta, created_at, idempotency_key FROM resource_ledger
       WHERE tenant_id = $1 AND idempotency_key = ANY ($2::varchar[])`,
      [tenantId, keys],
    );
  }

  /**
   * The balance step of `appendCredit` for many users of one resource type (one amount per user),
   * in one statement: the balance rows are created or raised, and locked, in user id order; the
   * totals after.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [{ userId: DUMMY.uuid2, amount: 5 }], DUMMY.date] })
  creditMany(
    tenantId: string,
    resourceTypeId: string,
    credits: { userId: string; amount: number }[],
    now: Date,
    em?: EntityManager,
  ): Promise<{ user_id: string; balance: string; earned: string }[]> {
    return onConstraintViolation(
      () =>
        this.manager(em).query(
          `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
       SELECT $1, c.u, $2, c.a, c.a, $5, $5 FROM unnest($3::uuid[], $4::bigint[]) AS c(u, a) ORDER BY c.u
       ${ADD_TO_BALANCE}
       RETURNING user_id, balance, earned`,
          [resourceTypeId, tenantId, credits.map((c) => c.userId), credits.map((c) => c.amount), now],
        ),
      AMOUNTS_SAFE,
    );
  }

  /**
   * `addSeasonScores` for many users (one delta per user) on each of these season boards, in one
   * statement (rows in season, then user id order); the scores after.
   */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid2], [{ userId: DUMMY.uuid, delta: 5 }], DUMMY.date] })
  addSeasonScoresMany(
    tenantId: string,
    seasonIds: string[],
    scores: { userId: string; delta: number }[],
    now: Date,
    em?: EntityManager,
  ): Promise<{ season_id: string; user_id: string; score: string }[]> {
    return this.manager(em).query(
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT s, c.u, $2, c.d, $5 FROM unnest($1::uuid[]) AS s, unnest($3::uuid[], $4::bigint[]) AS c(u, d) ORDER BY s, c.u
       ${ADD_TO_SEASON_SCORE}
       RETURNING season_id, user_id, score::text AS score`,
      [seasonIds, tenantId, scores.map((c) => c.userId), scores.map((c) => c.delta), now],
    );
  }

  /** Every balance of the user, with its type's slug and community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  balancesOf(
    tenantId: string,
    userId: string,
    em?: EntityManager,
  ): Promise<{ resource_type_id: string; slug: string; community_id: string; balance: string; earned: string }[]> {
    return this.manager(em).query(
      `SELECT b.resource_type_id, t.slug, t.community_id, b.balance, b.earned FROM resource_balances b
       JOIN resource_types t ON t.id = b.resource_type_id WHERE b.tenant_id = $1 AND b.user_id = $2 ORDER BY t.community_id, t.slug`,
      [tenantId, userId],
    );
  }

  /** The user's entries, newest first (of one resource type when given), and their count. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, undefined, DUMMY.page] })
  entriesPage(
    tenantId: string,
    userId: string,
    resourceTypeId: string | undefined,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<[ResourceLedgerEntry[], number]> {
    return this.manager(em)
      .getRepository(ResourceLedgerEntry)
      .findAndCount({
        where: { tenantId, userId, ...(resourceTypeId ? { resourceTypeId } : {}) },
        order: { createdAt: 'DESC', id: 'ASC' },
        skip: page.offset,
        take: page.limit,
      });
  }

  @GenerateSql({ params: [DUMMY.tenant, 'k'] })
  async entryByKey(tenantId: string, idempotencyKey: string, em?: EntityManager): Promise<EntryRow | null> {
    const rows: EntryRow[] = await this.manager(em).query(
      'SELECT id, user_id, resource_type_id, delta, earned_delta, created_at FROM resource_ledger WHERE tenant_id = $1 AND idempotency_key = $2',
      [tenantId, idempotencyKey],
    );
    return rows[0] ?? null;
  }
  /**
   * What was earned of a resource type per UTC day from `from` (a UTC midnight) on: the sum of the
   * positive earned changes and the number of players behind them, days without any left out.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.date] })
  earnedPerDay(
    tenantId: string,
    resourceTypeId: string,
    from: Date,
    em?: EntityManager,
  ): Promise<{ day: string; earned: string; players: number }[]> {
    return this.manager(em).query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, SUM(earned_delta)::text AS earned,
              COUNT(DISTINCT user_id)::int AS players
       FROM resource_ledger
       WHERE tenant_id = $1 AND resource_type_id = $2 AND created_at >= $3 AND earned_delta > 0
       GROUP BY 1 ORDER BY 1`,
      [tenantId, resourceTypeId, from],
    );
  }
}
