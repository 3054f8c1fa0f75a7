import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { UserErrors } from '../users/users.errors.js';
import { bucketChanges, MAX_AMOUNT_TOTAL } from './rank-buckets.js';
import { LedgerTargetsReadModel } from './ledger-targets.read-model.js';
import { LedgerRepository } from './ledger.repository.js';
import { RankingService } from './ranking.service.js';
import { ResourceErrors } from './resources.errors.js';
import './resources.events.js';

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
    private readonly repo: LedgerRepository,
    private readonly targets: LedgerTargetsReadModel,
    private readonly events: DomainEvents,
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
    return this.repo.balance(tenantId, userId, resourceTypeId, em);
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
    await this.repo.lockBalances(tenantId, userId, ids, this.clock.now(), em);
  }

  private apply(em: EntityManager, op: LedgerOperation, direction: 'credit' | 'debit', lowerEarned: boolean): Promise<LedgerResult> {
    if (!Number.isSafeInteger(op.amount) || op.amount <= 0)
      throw new Error(`ledger amount must be a positive safe integer, got ${op.amount}`);
    const delta = direction === 'credit' ? op.amount : -op.amount;
    const earnedDelta = direction === 'credit' ? op.amount : lowerEarned ? -op.amount : 0;
    const now = this.clock.now();
    // A savepoint inside the caller's transaction (or a transaction of its own).
    return em.transaction(async (tx) => {
      const found = await this.targets.exist(op.tenantId, op.userId, op.resourceTypeId, tx);
      if (!found.user) throw new DomainError(UserErrors.user_not_found, `No user ${op.userId} in this tenant`);
      if (!found.type)
        throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${op.resourceTypeId} in this tenant`);

      // Claim the idempotency key first: a concurrent duplicate waits here, then sees the key taken.
      const inserted = await this.repo.append(
        {
          tenantId: op.tenantId,
          resourceTypeId: op.resourceTypeId,
          userId: op.userId,
          delta,
          earnedDelta,
          reason: op.reason,
          reference: op.reference ?? null,
          idempotencyKey: op.idempotencyKey ?? null,
          createdAt: now,
        },
        tx,
      );
      if (!inserted) return this.replay(tx, op, delta, earnedDelta);

      let after: { balance: string; earned: string } | null;
      if (direction === 'credit') {
        after = await this.repo.credit(op.tenantId, op.userId, op.resourceTypeId, op.amount, now, tx);
        if (Number(after.earned) > MAX_AMOUNT_TOTAL) throw new DomainError(ResourceErrors.amount_too_large);
      } else {
        after = await this.repo.debit(op.tenantId, op.userId, op.resourceTypeId, op.amount, earnedDelta, now, tx);
        if (!after) {
          const have = await this.getBalance(tx, op.tenantId, op.userId, op.resourceTypeId);
          throw new DomainError(ResourceErrors.insufficient_balance, `Needs ${op.amount}, holds ${have.balance}`, {
            required: op.amount,
            balance: have.balance,
          });
        }
      }
      const earned = BigInt(after.earned);
      const changes = bucketChanges(earned - BigInt(earnedDelta), earned);
      if (changes.length > 0) await this.repo.addBucketDeltas(op.resourceTypeId, changes, tx);
      if (earnedDelta !== 0) await this.ranking.changedIn(tx, op.resourceTypeId, op.userId);
      // Counted once the outermost transaction commits (the metrics), never for a rolled-back one.
      if (direction === 'credit')
        await this.events.publish(tx, 'resource.credited', {
          tenantId: op.tenantId,
          userId: op.userId,
          resourceTypeId: op.resourceTypeId,
          kind: found.type,
          amount: op.amount,
          reason: op.reason,
        });
      return {
        entryId: inserted.id,
        userId: op.userId,
        resourceTypeId: op.resourceTypeId,
        delta,
        earnedDelta,
        balance: Number(after.balance),
        earned: Number(earned),
        createdAt: inserted.created_at,
        replayed: false,
      };
    });
  }

  private async replay(tx: EntityManager, op: LedgerOperation, delta: number, earnedDelta: number): Promise<LedgerResult> {
    const e = await this.repo.entryByKey(op.tenantId, op.idempotencyKey!, tx);
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
