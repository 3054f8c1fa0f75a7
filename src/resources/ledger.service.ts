import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents, type PublishOptions } from '../common/events/domain-events.js';
import { OutboxWriter } from '../integrations/outbox.writer.js';
import { UserErrors } from '../users/users.errors.js';
import type { ResourceKind } from './entities/resource-type.entity.js';
import { bucketChanges, type BucketChange } from './rank-buckets.js';
import { LedgerTargetsReadModel } from './ledger-targets.read-model.js';
import { LedgerRepository } from './ledger.repository.js';
import { RankingService } from './ranking.service.js';
import { ResourceErrors } from './resources.errors.js';
import { SeasonBoardsService } from './season-boards.service.js';
import type { ResourceDebited } from './resources.events.js';
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

/** Credits of one resource type for one reason to many users (`LedgerService.creditMany`). */
export interface CreditBatch {
  tenantId: string;
  resourceTypeId: string;
  reason: string;
  reference?: string | null;
  /** A user may appear several times (several rewards); every credit has its own idempotency key. */
  credits: { userId: string; amount: number; idempotencyKey: string }[];
}

/**
 * The only writer of resource balances. Each operation runs in the caller's `EntityManager`
 * (inside a savepoint when the caller has a transaction; otherwise a debit in its own transaction
 * and a credit as one statement that commits on its own), and writes, atomically: one append-only
 * `resource_ledger` row, the `resource_balances` row, the rank counter deltas and the live
 * seasons' scores. So for every user and resource type: Σ delta = balance, Σ earnedDelta =
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
    private readonly seasons: SeasonBoardsService,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * For a caller that debited the ledger in its own statement (the store's `store_purchase_item`
   * function, through resources' `cgs_debit_price`: the same ledger row, balance never below zero, earned untouched): publishes what a
   * `debit` publishes and forgets what is cached of the balance, in `em`'s transaction, or,
   * outside one, once that statement committed.
   */
  async debitedByCaller(em: EntityManager, debit: ResourceDebited, options?: PublishOptions): Promise<void> {
    this.amountsChangedIn(em, debit.resourceTypeId, debit.userId);
    await this.events.publish(em, 'resource.debited', debit, options);
  }

  /** The user's balance (and maybe earned amount) of the resource changes in `em`'s transaction: what caches show it goes at the commit. */
  private amountsChangedIn(em: EntityManager, resourceTypeId: string, userId: string): void {
    this.ranking.amountsChangedIn(em, resourceTypeId, userId);
    this.seasons.ownChangedIn(em, resourceTypeId, userId);
  }

  /** The domain event types `debitedByCaller` publishes. */
  readonly callerDebitEvents = ['resource.debited'] as const;

  /**
   * Adds `amount` to the user's balance and earned total (and to the scores of the live seasons
   * that take it). Outside a transaction (the management API's grants) it is one statement that
   * commits on its own, its outbox rows written by it, unless a module writes in the credit's
   * transaction (`DomainEvents.inTransaction`); inside one, that statement in a savepoint.
   */
  credit(em: EntityManager, op: LedgerOperation): Promise<LedgerResult> {
    assertAmount(op.amount);
    if (!em.queryRunner?.isTransactionActive) {
      const ownOutbox = this.outbox.enabled && !this.events.hasInTransactionHandlers(CREDIT_EVENTS, [OutboxWriter.HANDLER]);
      if (ownOutbox || !this.events.hasInTransactionHandlers(CREDIT_EVENTS)) return this.creditIn(em, op, ownOutbox);
    }
    return em.transaction((tx) => this.creditIn(tx, op, false));
  }

  /**
   * Takes `amount` from the user's spendable balance, never below zero: a conditional update,
   * 409 `insufficient_balance` otherwise (nothing written). See `lowerEarned` for the rank.
   */
  debit(em: EntityManager, op: DebitOperation): Promise<LedgerResult> {
    return this.debitIn(em, op, op.lowerEarned ?? false);
  }

  /**
   * `credit` for a batch (e.g. a season's winners), in a handful of statements whatever its size:
   * the entries in one, the balance rows in one (raised and locked in user id order: take them as
   * late in the transaction as the caller can), the rank counter deltas in one. The same rows and
   * events as one `credit` per element. All or nothing, in a savepoint: a 404 (a user or the type
   * not in the tenant), a 409 `idempotency_key_reused` or `amount_too_large` for any element
   * writes nothing, so a caller can fall back to `credit` one by one and learn which. A credit
   * whose key was used by the same operation is a replay (nothing changes for it).
   */
  creditMany(em: EntityManager, batch: CreditBatch): Promise<{ credited: number; replayed: number }> {
    assertCreditBatch(batch);
    if (batch.credits.length === 0) return Promise.resolve({ credited: 0, replayed: 0 });
    const now = this.clock.now();
    // Ids as the database answers them (the rows it returns are matched to the credits by user).
    const credits = batch.credits.map((c) => ({ ...c, userId: c.userId.toLowerCase() }));
    const { tenantId } = batch;
    const resourceTypeId = batch.resourceTypeId.toLowerCase();
    const reference = batch.reference ?? null;
    return em.transaction(async (tx) => {
      const userIds = [...new Set(credits.map((c) => c.userId))].sort();
      const found = await this.targets.existMany(tenantId, userIds, resourceTypeId, { at: now, reason: batch.reason, reference }, tx);
      const kind = batchKindOf(found, resourceTypeId);
      const entries = { tenantId, resourceTypeId, reason: batch.reason, reference, createdAt: now, credits: credits };
      const inserted = await this.repo.appendCredits(entries, tx);
      const isNew = new Set(inserted.map((e) => e.idempotency_key));
      const taken = credits.filter((c) => !isNew.has(c.idempotencyKey));
      if (taken.length > 0) await this.assertReplays(tx, tenantId, resourceTypeId, taken);
      const fresh = credits.filter((c) => isNew.has(c.idempotencyKey));
      if (fresh.length === 0) return { credited: 0, replayed: taken.length };
      await this.creditFresh(tx, entries, kind, found.seasonIds, fresh);
      return { credited: fresh.length, replayed: taken.length };
    });
  }

  /** Keys a batch found used before: a replay of the same credit changes nothing; another operation is a 409. */
  private async assertReplays(tx: EntityManager, tenantId: string, resourceTypeId: string, taken: CreditBatch['credits']): Promise<void> {
    const firsts = new Map(
      (
        await this.repo.entriesByKeys(
          tenantId,
          taken.map((c) => c.idempotencyKey),
          tx,
        )
      ).map((e) => [e.idempotency_key, e]),
    );
    for (const c of taken) {
      const e = firsts.get(c.idempotencyKey);
      if (
        !e ||
        e.user_id !== c.userId ||
        e.resource_type_id !== resourceTypeId ||
        Number(e.delta) !== c.amount ||
        Number(e.earned_delta) !== c.amount
      )
        throw new DomainError(
          ResourceErrors.idempotency_key_reused,
          `Idempotency key "${c.idempotencyKey}" was used for another operation`,
        );
    }
  }

  /**
   * The batch credit once its entries are appended and checked: the balance rows (raised and
   * locked in user id order), the rank counter deltas, the live seasons' scores and one
   * `resource.credited` per fresh credit.
   */
  private async creditFresh(
    tx: EntityManager,
    batch: { tenantId: string; resourceTypeId: string; reason: string; reference: string | null; createdAt: Date },
    kind: ResourceKind,
    seasonIds: string[],
    fresh: CreditBatch['credits'],
  ): Promise<void> {
    const { tenantId, resourceTypeId, reason, reference, createdAt: now } = batch;
    const totals = new Map<string, number>();
    for (const c of fresh) totals.set(c.userId, (totals.get(c.userId) ?? 0) + c.amount);
    const perUser = [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([userId, amount]) => ({ userId, amount }));
    const after = await this.repo.creditMany(tenantId, resourceTypeId, perUser, now, tx);
    const changes: BucketChange[] = [];
    const balanceBefore = new Map<string, number>();
    for (const row of after) {
      const total = totals.get(row.user_id)!;
      const earned = BigInt(row.earned);
      changes.push(...bucketChanges(earned - BigInt(total), earned));
      balanceBefore.set(row.user_id, Number(row.balance) - total);
    }
    if (changes.length > 0) await this.repo.addBucketDeltas(resourceTypeId, changes, tx);
    for (const row of after) {
      const earned = Number(row.earned);
      this.amountsChangedIn(tx, resourceTypeId, row.user_id);
      await this.ranking.changedIn(tx, resourceTypeId, row.user_id, earned - totals.get(row.user_id)!, earned);
    }
    if (seasonIds.length > 0) await this.countManyInSeasons(tx, tenantId, resourceTypeId, seasonIds, perUser, now);
    // One event per credit, with the balance after it (several credits of a user: in their order).
    for (const c of fresh) {
      const balance = balanceBefore.get(c.userId)! + c.amount;
      balanceBefore.set(c.userId, balance);
      await this.events.publish(tx, 'resource.credited', {
        tenantId,
        userId: c.userId,
        resourceTypeId,
        kind,
        amount: c.amount,
        reason,
        reference,
        balance,
      });
    }
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

  /**
   * A credit's one statement (`LedgerRepository.appendCredit`) and what follows it, in `em`: a
   * transaction's savepoint, or on its own (it has committed when it answers). With `ownOutbox`
   * the statement writes the credit's outbox row too, and the outbox's handler does not run.
   */
  private async creditIn(em: EntityManager, op: LedgerOperation, ownOutbox: boolean): Promise<LedgerResult> {
    const now = this.clock.now();
    const entry = {
      tenantId: op.tenantId,
      userId: op.userId,
      resourceTypeId: op.resourceTypeId,
      amount: op.amount,
      reason: op.reason,
      reference: op.reference ?? null,
    };
    // The statement's outbox row gets the type's kind and the balance after from the statement.
    const events = ownOutbox ? [this.outbox.build('resource.credited', { ...entry, kind: 'global', balance: 0 })] : [];
    // Targets, entry (claiming the idempotency key: a concurrent duplicate waits there, then finds
    // it taken), balance, season scores, rank counter deltas and outbox row in one statement.
    const r = await this.repo.appendCredit({ ...entry, idempotencyKey: op.idempotencyKey ?? null, createdAt: now }, em, events);
    const kind = kindOf(op, r.userOk, r.typeKind);
    if (!r.entry) return this.replay(em, op, op.amount, op.amount);
    if (!r.after) throw new Error('a credit appended its entry but stored no balance');
    const balance = Number(r.after.balance);
    const earned = Number(r.after.earned);
    this.amountsChangedIn(em, op.resourceTypeId, op.userId);
    await this.ranking.changedIn(em, op.resourceTypeId, op.userId, earned - op.amount, earned);
    for (const { seasonId, score } of r.seasons)
      this.seasons.changedIn(em, seasonId, op.resourceTypeId, Number(score) - op.amount, Number(score));
    // Counted once the outermost transaction commits (the metrics), never for a rolled-back one.
    await this.events.publish(em, 'resource.credited', { ...entry, kind, balance }, ownOutbox ? { handledBy: OUTBOX } : undefined);
    if (ownOutbox)
      this.outbox.committed([{ ...events[0], payload: { ...events[0].payload, kind, balance } }], { deliveries: r.deliveries });
    return {
      entryId: r.entry.id,
      userId: op.userId,
      resourceTypeId: op.resourceTypeId,
      delta: op.amount,
      earnedDelta: op.amount,
      balance,
      earned,
      createdAt: r.entry.created_at,
      replayed: false,
    };
  }

  private debitIn(em: EntityManager, op: LedgerOperation, lowerEarned: boolean): Promise<LedgerResult> {
    assertAmount(op.amount);
    const delta = -op.amount;
    const earnedDelta = lowerEarned ? -op.amount : 0;
    const now = this.clock.now();
    // A savepoint inside the caller's transaction (or a transaction of its own).
    return em.transaction(async (tx) => {
      const entry = {
        tenantId: op.tenantId,
        resourceTypeId: op.resourceTypeId,
        userId: op.userId,
        reason: op.reason,
        reference: op.reference ?? null,
        idempotencyKey: op.idempotencyKey ?? null,
        createdAt: now,
      };
      const season = earnedDelta !== 0 ? { at: now, reason: op.reason, reference: op.reference ?? null } : null;
      const targets = await this.targets.exist(op.tenantId, op.userId, op.resourceTypeId, season, tx);
      const kind = kindOf(op, targets.user, targets.type);
      // Claim the idempotency key first: a concurrent duplicate waits here, then sees the key taken.
      const inserted = await this.repo.append({ ...entry, delta, earnedDelta }, tx);
      if (!inserted) return this.replay(tx, op, delta, earnedDelta);
      const after = await this.repo.debit(op.tenantId, op.userId, op.resourceTypeId, op.amount, earnedDelta, now, tx);
      if (!after) {
        const have = await this.getBalance(tx, op.tenantId, op.userId, op.resourceTypeId);
        throw new DomainError(ResourceErrors.insufficient_balance, `Needs ${op.amount}, holds ${have.balance}`, {
          required: op.amount,
          balance: have.balance,
        });
      }
      const changes = bucketChanges(BigInt(after.earned) - BigInt(earnedDelta), BigInt(after.earned));
      if (changes.length > 0) await this.repo.addBucketDeltas(op.resourceTypeId, changes, tx);
      const earned = Number(after.earned);
      this.amountsChangedIn(tx, op.resourceTypeId, op.userId);
      if (earnedDelta !== 0) await this.ranking.changedIn(tx, op.resourceTypeId, op.userId, earned - earnedDelta, earned);
      if (targets.seasonIds.length > 0) await this.countInSeasons(tx, op, targets.seasonIds, earnedDelta, now);
      // Counted once the outermost transaction commits (the metrics), never for a rolled-back one.
      await this.events.publish(tx, 'resource.debited', {
        tenantId: op.tenantId,
        userId: op.userId,
        resourceTypeId: op.resourceTypeId,
        kind,
        amount: op.amount,
        reason: op.reason,
        reference: op.reference ?? null,
        balance: Number(after.balance),
      });
      return {
        entryId: inserted.id,
        userId: op.userId,
        resourceTypeId: op.resourceTypeId,
        delta,
        earnedDelta,
        balance: Number(after.balance),
        earned,
        createdAt: inserted.created_at,
        replayed: false,
      };
    });
  }

  /**
   * The entry also counts on the boards of the live seasons that take it (their window holds `now`,
   * the entry's time): the season scores and their rank counters change in this transaction.
   */
  private async countInSeasons(tx: EntityManager, op: LedgerOperation, seasonIds: string[], earnedDelta: number, now: Date): Promise<void> {
    const after = await this.repo.addSeasonScores(op.tenantId, op.userId, seasonIds, earnedDelta, now, tx);
    for (const { season_id, score } of after) {
      const to = BigInt(score);
      const from = to - BigInt(earnedDelta);
      // Only a positive score is ranked (a revoke may take a season score below zero).
      const changes = bucketChanges(from > 0n ? from : 0n, to > 0n ? to : 0n);
      if (changes.length > 0) await this.repo.addBucketDeltas(season_id, changes, tx);
      this.seasons.changedIn(tx, season_id, op.resourceTypeId, Number(from), Number(to));
    }
  }

  /** `countInSeasons` for a batch: every user's credits (their total) on the boards of these live seasons. */
  private async countManyInSeasons(
    tx: EntityManager,
    tenantId: string,
    resourceTypeId: string,
    seasonIds: string[],
    perUser: { userId: string; amount: number }[],
    now: Date,
  ): Promise<void> {
    const total = new Map(perUser.map((u) => [u.userId, u.amount]));
    const rows = await this.repo.addSeasonScoresMany(
      tenantId,
      seasonIds,
      perUser.map((u) => ({ userId: u.userId, delta: u.amount })),
      now,
      tx,
    );
    const bySeason = new Map<string, BucketChange[]>();
    for (const { season_id, user_id, score } of rows) {
      const to = BigInt(score);
      const from = to - BigInt(total.get(user_id)!);
      const changes = bySeason.get(season_id) ?? [];
      changes.push(...bucketChanges(from > 0n ? from : 0n, to > 0n ? to : 0n));
      bySeason.set(season_id, changes);
      this.seasons.changedIn(tx, season_id, resourceTypeId, Number(from), Number(to));
    }
    for (const [seasonId, changes] of bySeason) {
      if (changes.length > 0) await this.repo.addBucketDeltas(seasonId, changes, tx);
    }
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

/** The events a credit publishes: an `inTransaction` handler of any of them (but the outbox's, whose row the statement writes) needs the credit in a transaction. */
const CREDIT_EVENTS = ['resource.credited', 'resource.earned-changed'] as const;
const OUTBOX = [OutboxWriter.HANDLER];

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive safe integer, got ${amount}`);
}

/** A batch's own checks, before anything is read: positive amounts, one idempotency key per credit. */
function assertCreditBatch(batch: CreditBatch): void {
  for (const c of batch.credits) assertAmount(c.amount);
  if (new Set(batch.credits.map((c) => c.idempotencyKey)).size !== batch.credits.length)
    throw new Error('creditMany: every credit needs an idempotency key of its own');
}

/** The batch's type kind, once the type and every user are known to be in the tenant (404 otherwise). */
function batchKindOf(found: { missingUsers: string[]; type: ResourceKind | null }, resourceTypeId: string): ResourceKind {
  if (!found.type) throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${resourceTypeId} in this tenant`);
  if (found.missingUsers.length > 0) throw new DomainError(UserErrors.user_not_found, `No user ${found.missingUsers[0]} in this tenant`);
  return found.type;
}

/** The type's kind, once the user and the type are known to be in the tenant (404 otherwise). */
function kindOf(op: LedgerOperation, user: boolean, type: ResourceKind | null): ResourceKind {
  if (!user) throw new DomainError(UserErrors.user_not_found, `No user ${op.userId} in this tenant`);
  if (!type) throw new DomainError(ResourceErrors.resource_type_not_found, `No resource type ${op.resourceTypeId} in this tenant`);
  return type;
}
