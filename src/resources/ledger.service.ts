import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { UserErrors } from '../users/users.errors.js';
import { bucketChanges, MAX_AMOUNT_TOTAL } from './rank-buckets.js';
import { RankingService } from './ranking.service.js';
import { ResourceErrors } from './resources.errors.js';

export interface LedgerOperation {
  tenantId: string;
  userId: string;
  resourceTypeId: string;
  /** A positive integer. */
  amount: number;
  /** Why (`grant`, `quest_completion`, `purchase`...), at most 64 characters. */
  reason: string;
  /** What it refers to (quest id, order id...), at most 200 characters. */
  reference?: string | null;
  /**
   * Unique per tenant, at most 128 characters. A second operation with the same key changes
   * nothing and returns the first one's entry (`replayed: true`); with the same key but another
   * user, resource type, direction or amount it is a 409 `idempotency_key_reused`.
   */
  idempotencyKey?: string | null;
}

export interface DebitOperation extends LedgerOperation {
  /**
   * false (default): a spend. Lowers the spendable `balance` only; rank is kept.
   * true: a revoke (e.g. a moderator's correction). Lowers `earned` (the rank) too.
   */
  lowerEarned?: boolean;
}

export interface LedgerResult {
  entryId: string;
  userId: string;
  resourceTypeId: string;
  /** Change of the spendable balance (negative for a debit). */
  delta: number;
  /** Change of `earned` (what the leaderboard ranks). */
  earnedDelta: number;
  /** Spendable balance after the operation (for a replay: now). */
  balance: number;
  /** Earned total after the operation (for a replay: now). */
  earned: number;
  createdAt: Date;
  /** true when the idempotency key had been used: nothing was changed this time. */
  replayed: boolean;
}

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL with [rows, affectedCount]. */
function updatedRows<T>(res: unknown): T[] {
  return (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as T[];
}

interface EntryRow {
  id: string;
  user_id: string;
  resource_type_id: string;
  delta: string;
  earned_delta: string;
  created_at: Date;
}

/**
 * The only writer of resource balances. Each operation runs in the caller's `EntityManager`
 * (inside a savepoint when the caller has a transaction, in its own transaction otherwise), and
 * writes, atomically: one append-only `resource_ledger` row, the `resource_balances` row, and the
 * rank counter deltas. So for every user and resource type: Σ delta = balance, Σ earnedDelta =
 * earned, and a failed operation (404, 409) leaves nothing behind even if the caller goes on.
 *
 * "earned" vs "spendable": credits raise both; `debit` lowers only the spendable balance unless
 * `lowerEarned` is set. Leaderboards rank by earned, the store spends the balance.
 *
 * Locking: an operation locks the (user, resource type) balance row until the caller commits.
 * A caller that changes several balances in one transaction should do so in a fixed order
 * (e.g. by user id) to avoid deadlocks with other such callers. Rank counters take no locks.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly clock: Clock,
    private readonly ranking: RankingService,
  ) {}

  /** Adds `amount` to the user's balance and earned total. */
  credit(em: EntityManager, op: LedgerOperation): Promise<LedgerResult> {
    return this.apply(em, op, 'credit', false);
  }

  /**
   * Takes `amount` from the user's spendable balance, never below zero: a conditional update,
   * 409 `insufficient_balance` otherwise (nothing written). See `lowerEarned` for the rank.
   */
  debit(em: EntityManager, op: DebitOperation): Promise<LedgerResult> {
    return this.apply(em, op, 'debit', op.lowerEarned ?? false);
  }

  /** Balance and earned total of one user for one resource type (zeros when never credited). */
  async getBalance(
    em: EntityManager,
    tenantId: string,
    userId: string,
    resourceTypeId: string,
  ): Promise<{ balance: number; earned: number }> {
    const rows: { balance: string; earned: string }[] = await em.query(
      'SELECT balance, earned FROM resource_balances WHERE tenant_id = $1 AND user_id = $2 AND resource_type_id = $3',
      [tenantId, userId, resourceTypeId],
    );
    return rows.length ? { balance: Number(rows[0].balance), earned: Number(rows[0].earned) } : { balance: 0, earned: 0 };
  }

  /**
   * Locks the user's balance rows of these resource types, in resource-type-id order, creating
   * empty rows where none exist yet. A caller that will debit and credit several resource types in
   * one transaction calls this first, so two such transactions always take the rows in the same
   * order and cannot deadlock (e.g. one purchase paying gems for tokens while another of the same
   * user pays tokens for gems). The resource types must belong to the tenant.
   */
  async lockBalances(em: EntityManager, tenantId: string, userId: string, resourceTypeIds: string[]): Promise<void> {
    const ids = [...new Set(resourceTypeIds.map((id) => id.toLowerCase()))].sort();
    if (ids.length === 0) return;
    const now = this.clock.now();
    await em.query(
      `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
       SELECT t, $2, $3, 0, 0, $4, $4 FROM unnest($1::uuid[]) AS t ORDER BY t
       ON CONFLICT (resource_type_id, user_id) DO NOTHING`,
      [ids, userId, tenantId, now],
    );
    await em.query(
      `SELECT 1 FROM resource_balances WHERE user_id = $1 AND resource_type_id = ANY($2::uuid[]) ORDER BY resource_type_id FOR UPDATE`,
      [userId, ids],
    );
  }

  private apply(em: EntityManager, op: LedgerOperation, direction: 'credit' | 'debit', lowerEarned: boolean): Promise<LedgerResult> {
    if (!Number.isSafeInteger(op.amount) || op.amount <= 0)
      throw new Error(`ledger amount must be a positive safe integer, got ${op.amount}`);
    const delta = direction === 'credit' ? op.amount : -op.amount;
    const earnedDelta = direction === 'credit' ? op.amount : lowerEarned ? -op.amount : 0;
    const now = this.clock.now();
    // A savepoint inside the caller's transaction (or a transaction of its own).
    return em.transaction(async (tx) => {
      const found: { user_ok: boolean; type_ok: boolean }[] = await tx.query(
        `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND tenant_id = $3) AS user_ok,
                EXISTS (SELECT 1 FROM resource_types WHERE id = $2 AND tenant_id = $3) AS type_ok`,
        [op.userId, op.resourceTypeId, op.tenantId],
      );
      if (!found[0].user_ok) throw new DomainError(UserErrors.user_not_found, `No user ${op.userId} in this tenant`);
      if (!found[0].type_ok)
        throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${op.resourceTypeId} in this tenant`);

      // Claim the idempotency key first: a concurrent duplicate waits here, then sees the key taken.
      const inserted: { id: string; created_at: Date }[] = await tx.query(
        `INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, reference, idempotency_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id, created_at`,
        [op.tenantId, op.resourceTypeId, op.userId, delta, earnedDelta, op.reason, op.reference ?? null, op.idempotencyKey ?? null, now],
      );
      if (inserted.length === 0) return this.replay(tx, op, delta, earnedDelta);

      let after: { balance: string; earned: string }[];
      if (direction === 'credit') {
        after = await tx.query(
          `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
           VALUES ($1, $2, $3, $4, $4, $5, $5)
           ON CONFLICT (resource_type_id, user_id) DO UPDATE SET
             balance = resource_balances.balance + EXCLUDED.balance,
             earned = resource_balances.earned + EXCLUDED.earned,
             earned_at = EXCLUDED.earned_at, updated_at = EXCLUDED.updated_at
           RETURNING balance, earned`,
          [op.resourceTypeId, op.userId, op.tenantId, op.amount, now],
        );
        if (Number(after[0].earned) > MAX_AMOUNT_TOTAL) throw new DomainError(ResourceErrors.amount_too_large);
      } else {
        after = updatedRows(
          await tx.query(
            `UPDATE resource_balances SET balance = balance - $3, earned = earned + $4,
             earned_at = CASE WHEN $4::bigint <> 0 THEN $5 ELSE earned_at END, updated_at = $5
           WHERE resource_type_id = $1 AND user_id = $2 AND balance >= $3
           RETURNING balance, earned`,
            [op.resourceTypeId, op.userId, op.amount, earnedDelta, now],
          ),
        );
        if (after.length === 0) {
          const have = await this.getBalance(tx, op.tenantId, op.userId, op.resourceTypeId);
          throw new DomainError(ResourceErrors.insufficient_balance, `Needs ${op.amount}, holds ${have.balance}`, {
            required: op.amount,
            balance: have.balance,
          });
        }
      }
      const earned = BigInt(after[0].earned);
      const changes = bucketChanges(earned - BigInt(earnedDelta), earned);
      if (changes.length > 0) {
        await tx.query(
          `INSERT INTO resource_rank_bucket_deltas (resource_type_id, level, bucket, delta)
           SELECT $1, l, b, d FROM unnest($2::smallint[], $3::bigint[], $4::int[]) AS c(l, b, d)`,
          [op.resourceTypeId, changes.map((c) => c.level), changes.map((c) => c.bucket.toString()), changes.map((c) => c.delta)],
        );
      }
      if (earnedDelta !== 0) this.ranking.changedIn(tx, op.resourceTypeId);
      return {
        entryId: inserted[0].id,
        userId: op.userId,
        resourceTypeId: op.resourceTypeId,
        delta,
        earnedDelta,
        balance: Number(after[0].balance),
        earned: Number(earned),
        createdAt: inserted[0].created_at,
        replayed: false,
      };
    });
  }

  private async replay(tx: EntityManager, op: LedgerOperation, delta: number, earnedDelta: number): Promise<LedgerResult> {
    const rows: EntryRow[] = await tx.query(
      'SELECT id, user_id, resource_type_id, delta, earned_delta, created_at FROM resource_ledger WHERE tenant_id = $1 AND idempotency_key = $2',
      [op.tenantId, op.idempotencyKey],
    );
    const e = rows[0];
    if (
      !e ||
      e.user_id !== op.userId ||
      e.resource_type_id !== op.resourceTypeId ||
      Number(e.delta) !== delta ||
      Number(e.earned_delta) !== earnedDelta
    ) {
      throw new DomainError(ResourceErrors.idempotency_key_reused, `Idempotency key "${op.idempotencyKey}" was used for another operation`);
    }
    const now = await this.getBalance(tx, op.tenantId, op.userId, op.resourceTypeId);
    return {
      entryId: e.id,
      userId: e.user_id,
      resourceTypeId: e.resource_type_id,
      delta,
      earnedDelta,
      ...now,
      createdAt: e.created_at,
      replayed: true,
    };
  }
}
