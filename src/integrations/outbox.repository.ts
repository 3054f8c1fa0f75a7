import { Injectable } from '@nestjs/common';
import { preparedQuery } from '../database/prepared-query.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { OutboxEvent } from './entities/outbox-event.entity.js';

/** Events per statement of `insert`. */
export const OUTBOX_BATCH = 1000;
/** An event as written to the outbox and sent to every sink. */
export interface OutboxRecord {
  id: string;
  tenantId: string;
  type: string;
  version: number;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/** A piece of a statement (common table expressions) and its parameters, numbered from the caller's offset. */
export interface StatementPiece {
  ctes: string;
  params: unknown[];
}

/** The SQL of how many deliveries an `insertPiece` made, for the host statement's select list. */
export const PIECE_DELIVERIES = '(SELECT count(*) FROM outbox_deliveries)::int';

/**
 * Whether the subscription `s` takes the event `event` (an alias with `tenant_id` and `type`): the
 * one rule both for writing an event at all and for making its deliveries, so the two never disagree.
 */
const takes = (event: string) =>
  `s.tenant_id = ${event}.tenant_id AND s.active AND (${event}.type = ANY (s.event_types) OR '*' = ANY (s.event_types))`;

export const EXAMPLE_OUTBOX_RECORD: OutboxRecord = {
  id: DUMMY.uuid,
  tenantId: DUMMY.tenant,
  type: 'community.joined',
  version: 1,
  occurredAt: DUMMY.date,
  payload: { communityId: DUMMY.uuid2, userId: DUMMY.uuid3 },
};

/**
 * The outbox (outbox_events) and the fan-out of its rows to webhook deliveries. Both happen in
 * ONE statement, in the transaction of the change: the rows travel as one JSON parameter, so a
 * transaction's events cost one round trip however many there are.
 */
@Injectable()
export class OutboxRepository extends BaseRepository {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    super(dataSource);
  }

  /**
   * The statement piece that writes `events` and their deliveries (one per active subscription of
   * the tenant that takes the type), for a caller that folds it into a statement of its own (one
   * round trip on a hot path: the returning login, a single-statement purchase). It defines the
   * CTEs `outbox_rows` and `outbox_deliveries` (`PIECE_DELIVERIES` counts them for
   * `OutboxWriter.committed`); `$first` is its first parameter's number.
   *
   * `payloadMerge` (SQL, optional): merged into every payload, for values only the host statement
   * knows (e.g. `jsonb_build_object('userId', (SELECT user_id FROM r))`); `onlyIf` (SQL, optional):
   * the events are written only when it holds.
   *
   * An event no sink takes is not written: only with NATS on, or when an active subscription of
   * its tenant takes its type (nothing else ever reads an event, and a subscription made later
   * gets none of the past ones: docs/decisions.md).
   */
  insertPiece(events: OutboxRecord[], first: number, sql: { payloadMerge?: string; onlyIf?: string } = {}): StatementPiece {
    const rows = events.map((e) => ({
      id: e.id,
      tenant_id: e.tenantId,
      type: e.type,
      version: e.version,
      occurred_at: e.occurredAt.toISOString(),
      payload: e.payload,
    }));
    const nats = !!this.config.NATS_URL;
    // With NATS every event is written; without it, only those a subscription takes. Decided here,
    // not by a parameter in the statement: `$n OR EXISTS (...)` made PostgreSQL plan the prepared
    // purchase statement anew at every call (its generic plan no longer won).
    const conditions = [
      ...(sql.onlyIf ? [`(${sql.onlyIf})`] : []),
      ...(nats ? [] : [`EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE ${takes('e')})`]),
    ];
    const ctes = `outbox_rows AS (
         INSERT INTO outbox_events (id, tenant_id, type, version, occurred_at, payload, nats_pending)
         SELECT e.id, e.tenant_id, e.type, e.version, e.occurred_at, ${sql.payloadMerge ? `e.payload || ${sql.payloadMerge}` : 'e.payload'}, $${first + 1}
         FROM jsonb_to_recordset($${first}::jsonb) AS e(id uuid, tenant_id uuid, type varchar, version smallint, occurred_at timestamptz, payload jsonb)
         ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
         RETURNING id, tenant_id, type, occurred_at),
       outbox_deliveries AS (
         INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
         SELECT o.tenant_id, s.id, o.id, 'pending', 0, o.occurred_at, o.occurred_at, o.occurred_at
         FROM outbox_rows o JOIN webhook_subscriptions s ON ${takes('o')}
         RETURNING 1)`;
    // With NATS_URL set, the NATS sink relays them (NatsSink).
    return { ctes, params: [JSON.stringify(rows), nats] };
  }

  /**
   * Writes the events and their deliveries: one statement per `OUTBOX_BATCH` events (a transaction
   * that allocated an event's every participant a reward does not send one parameter of all of
   * them); how many deliveries were created.
   */
  @GenerateSql({ params: [[EXAMPLE_OUTBOX_RECORD]] })
  async insert(events: OutboxRecord[], em?: EntityManager): Promise<number> {
    let deliveries = 0;
    for (let i = 0; i < events.length; i += OUTBOX_BATCH) {
      const piece = this.insertPiece(events.slice(i, i + OUTBOX_BATCH), 1);
      const [row] = await preparedQuery<{ deliveries: number }>(
        this.manager(em),
        `WITH ${piece.ctes} SELECT ${PIECE_DELIVERIES} AS deliveries`,
        piece.params,
      );
      deliveries += row.deliveries;
    }
    return deliveries;
  }

  // ---------------------------------------------------------------- the NATS sink (every tenant)

  /**
   * Locks up to `limit` events waiting for the NATS sink, oldest first (`SKIP LOCKED`: instances
   * share them). Run inside a transaction that marks them published after the broker acknowledged.
   */
  @GenerateSql({ params: [100], inTransaction: true })
  claimNatsPending(limit: number, em?: EntityManager): Promise<OutboxEvent[]> {
    return this.manager(em)
      .getRepository(OutboxEvent)
      .createQueryBuilder('e')
      .where('e.natsPending')
      .orderBy('e.occurredAt')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  // ---------------------------------------------------------------- retention (every tenant)

  /**
   * Deletes up to `limit` of the oldest events that occurred before `before` and that nothing owes
   * any more: published to NATS (or never due there) and without a delivery row (finished ones are
   * deleted first, `WebhooksRepository.deleteFinishedBefore`). How many it deleted.
   */
  @GenerateSql({ params: [DUMMY.date, 1000] })
  async deleteSettledBefore(before: Date, limit: number, em?: EntityManager): Promise<number> {
    const [row]: { n: number }[] = await this.manager(em).query(
      `WITH gone AS (
         DELETE FROM outbox_events WHERE id IN (
           SELECT e.id FROM outbox_events e
            WHERE e.occurred_at < $1 AND NOT e.nats_pending
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
            ORDER BY e.occurred_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, limit],
    );
    return row.n;
  }

  @GenerateSql({ params: [[DUMMY.uuid]] })
  async markNatsPublished(ids: string[], em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE outbox_events SET nats_pending = false WHERE id = ANY ($1::uuid[])', [ids]);
  }
}
