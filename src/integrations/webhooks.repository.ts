import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery, type DeliveryStatus } from './entities/webhook-delivery.entity.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';

/** A delivery a worker claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  subscriptionId: string;
  attempts: number;
  url: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
  eventId: string;
  type: string;
  version: number;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/** The outcome of one attempt. */
export interface AttemptResult {
  id: string;
  /** The attempt number the claim gave it (a stale worker's failure does not overwrite a newer claim). */
  attempts: number;
  status: 'delivered' | 'pending' | 'dead';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
  /** When to try again (status pending). */
  nextAttemptAt: Date | null;
}

export interface DeliveryFilter {
  subscriptionId?: string;
  status?: DeliveryStatus;
  eventId?: string;
  from?: Date;
  to?: Date;
}

/** Webhook subscriptions, their deliveries and attempts. */
@Injectable()
export class WebhooksRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  // ---------------------------------------------------------------- subscriptions

  @GenerateSql({
    params: [
      DUMMY.tenant,
      {
        id: DUMMY.uuid,
        url: 'https://example.test/hook',
        eventTypes: ['*'],
        active: true,
        description: null,
        secretEncrypted: 'enc',
        now: DUMMY.date,
      },
    ],
  })
  insertSubscription(
    tenantId: string,
    s: { id: string; url: string; eventTypes: string[]; active: boolean; description: string | null; secretEncrypted: string; now: Date },
    em?: EntityManager,
  ): Promise<WebhookSubscription> {
    return this.manager(em).getRepository(WebhookSubscription).save({
      id: s.id,
      tenantId,
      url: s.url,
      eventTypes: s.eventTypes,
      active: s.active,
      description: s.description,
      secretEncrypted: s.secretEncrypted,
      previousSecretEncrypted: null,
      previousSecretExpiresAt: null,
      createdAt: s.now,
      updatedAt: s.now,
    });
  }

  @GenerateSql({ params: [DUMMY.tenant] })
  listSubscriptions(tenantId: string, em?: EntityManager): Promise<WebhookSubscription[]> {
    return this.manager(em)
      .getRepository(WebhookSubscription)
      .find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' }, take: 1000 });
  }

  /**
   * Takes the tenant's subscription lock until the end of the caller's transaction: creations of
   * one tenant count and insert one at a time, so concurrent ones cannot pass the cap together.
   */
  @GenerateSql({ params: [DUMMY.tenant], inTransaction: true })
  async lockTenantSubscriptions(tenantId: string, em: EntityManager): Promise<void> {
    await em.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook_subscriptions:' || $1, 0))", [tenantId]);
  }

  @GenerateSql({ params: [DUMMY.tenant] })
  countSubscriptions(tenantId: string, em?: EntityManager): Promise<number> {
    return this.manager(em).getRepository(WebhookSubscription).countBy({ tenantId });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  findSubscription(tenantId: string, id: string, em?: EntityManager): Promise<WebhookSubscription | null> {
    return this.manager(em).getRepository(WebhookSubscription).findOneBy({ tenantId, id });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { active: false, updatedAt: DUMMY.date }] })
  async updateSubscription(
    tenantId: string,
    id: string,
    set: Partial<
      Pick<
        WebhookSubscription,
        | 'url'
        | 'eventTypes'
        | 'active'
        | 'description'
        | 'secretEncrypted'
        | 'previousSecretEncrypted'
        | 'previousSecretExpiresAt'
        | 'updatedAt'
      >
    >,
    em?: EntityManager,
  ): Promise<boolean> {
    const res = await this.manager(em).getRepository(WebhookSubscription).update({ tenantId, id }, set);
    return (res.affected ?? 0) > 0;
  }

  /**
   * Replaces the signing secrets only if the current one is still `expected` (what the caller
   * read): of two rotations made at once, the second finds another secret and changes nothing.
   */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      DUMMY.uuid,
      'enc-read',
      { secretEncrypted: 'enc', previousSecretEncrypted: 'enc-read', previousSecretExpiresAt: DUMMY.date, updatedAt: DUMMY.date },
    ],
  })
  async replaceSecret(
    tenantId: string,
    id: string,
    expected: string,
    set: Pick<WebhookSubscription, 'secretEncrypted' | 'previousSecretEncrypted' | 'previousSecretExpiresAt' | 'updatedAt'>,
    em?: EntityManager,
  ): Promise<boolean> {
    const res = await this.manager(em).getRepository(WebhookSubscription).update({ tenantId, id, secretEncrypted: expected }, set);
    return (res.affected ?? 0) > 0;
  }

  /**
   * Pauses (or resumes) the unfinished deliveries of a subscription, in the transaction that made
   * it inactive (or active) after that update: its row lock orders this against another change of
   * `active`. Paused deliveries are out of the due index, so the workers' claim never reads them.
   */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, true], inTransaction: true },
    { name: 'resume', params: [DUMMY.tenant, DUMMY.uuid, false], inTransaction: true },
  )
  async pauseDeliveries(tenantId: string, subscriptionId: string, paused: boolean, em: EntityManager): Promise<number> {
    const [, n]: [unknown[], number] = await em.query(
      paused
        ? "UPDATE webhook_deliveries SET paused = true WHERE tenant_id = $1 AND subscription_id = $2 AND status IN ('pending', 'delivering') AND NOT paused"
        : 'UPDATE webhook_deliveries SET paused = false WHERE tenant_id = $1 AND subscription_id = $2 AND paused',
      [tenantId, subscriptionId],
    );
    return n;
  }

  /** Deletes the subscription and (cascade) its deliveries and attempts. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async deleteSubscription(tenantId: string, id: string, em?: EntityManager): Promise<boolean> {
    const res = await this.manager(em).getRepository(WebhookSubscription).delete({ tenantId, id });
    return (res.affected ?? 0) > 0;
  }

  // ---------------------------------------------------------------- the worker (every tenant)

  /**
   * Claims up to `limit` due deliveries of active subscriptions (`FOR UPDATE SKIP LOCKED`, so
   * workers of several instances take different ones): marks them delivering, counts the attempt
   * and leases them until `lease`, past which an unfinished one (its worker died) is due again.
   * One statement, committed on its own: the lease holds without a transaction held open. It walks
   * the due index, which holds no paused delivery; the join on `active` keeps out the rare one
   * created as its subscription was being deactivated.
   */
  @GenerateSql({ params: [DUMMY.date, DUMMY.date, 100] })
  async claimDue(now: Date, lease: Date, limit: number, em?: EntityManager): Promise<ClaimedDelivery[]> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows]: [Record<string, unknown>[], number] = await this.manager(em).query(
      `WITH due AS (
           SELECT d.id FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.active
           WHERE d.status IN ('pending', 'delivering') AND NOT d.paused AND d.next_attempt_at <= $1
           ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries d SET status = 'delivering', attempts = d.attempts + 1, next_attempt_at = $2, updated_at = $1
       FROM due, outbox_events e, webhook_subscriptions s
       WHERE d.id = due.id AND e.id = d.event_id AND s.id = d.subscription_id
       RETURNING d.id, d.tenant_id, d.subscription_id, d.attempts, s.url, s.secret_encrypted, s.previous_secret_encrypted,
         s.previous_secret_expires_at, e.id AS event_id, e.type, e.version, e.occurred_at, e.payload`,
      [now, lease, limit],
    );
    return rows.map((r) => ({
      id: r.id as string,
      tenantId: r.tenant_id as string,
      subscriptionId: r.subscription_id as string,
      attempts: r.attempts as number,
      url: r.url as string,
      secretEncrypted: r.secret_encrypted as string,
      previousSecretEncrypted: r.previous_secret_encrypted as string | null,
      previousSecretExpiresAt: r.previous_secret_expires_at as Date | null,
      eventId: r.event_id as string,
      type: r.type as string,
      version: r.version as number,
      occurredAt: r.occurred_at as Date,
      payload: r.payload as Record<string, unknown>,
    }));
  }

  /**
   * Records a batch of attempts in one statement: an attempt row each, and the delivery's new
   * state. A success always counts; a failure only while the delivery is still this attempt's
   * (not claimed again since by another worker after the lease ran out).
   */
  @GenerateSql({
    params: [
      [
        {
          id: DUMMY.uuid,
          attempts: 1,
          status: 'pending',
          statusCode: 500,
          error: 'HTTP 500',
          durationMs: 12,
          attemptedAt: DUMMY.date,
          nextAttemptAt: DUMMY.date,
        },
      ],
      DUMMY.date,
    ],
  })
  async recordResults(results: AttemptResult[], now: Date, em?: EntityManager): Promise<void> {
    const rows = results.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      status: r.status,
      status_code: r.statusCode,
      error: r.error,
      duration_ms: r.durationMs,
      attempted_at: r.attemptedAt.toISOString(),
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    }));
    await this.manager(em).query(
      `WITH r AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, attempts int, status varchar, status_code smallint, error varchar,
             duration_ms int, attempted_at timestamptz, next_attempt_at timestamptz)),
         a AS (
           INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
           SELECT r.id, r.attempted_at, r.status_code, r.duration_ms, r.error FROM r WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = r.id))
       UPDATE webhook_deliveries d SET status = r.status, next_attempt_at = COALESCE(r.next_attempt_at, d.next_attempt_at),
         last_status_code = r.status_code, last_error = r.error, updated_at = $2,
         delivered_at = CASE WHEN r.status = 'delivered' THEN r.attempted_at ELSE d.delivered_at END
       FROM r
       WHERE d.id = r.id AND d.status <> 'delivered' AND (r.status = 'delivered' OR (d.status = 'delivering' AND d.attempts = r.attempts))`,
      [JSON.stringify(rows), now],
    );
  }

  // ---------------------------------------------------------------- operators

  /** A page of the tenant's deliveries, newest first, with their event's type. */
  @GenerateSql(
    { params: [DUMMY.tenant, {}, DUMMY.page] },
    {
      name: 'filtered',
      params: [
        DUMMY.tenant,
        { subscriptionId: DUMMY.uuid, status: 'dead', eventId: DUMMY.uuid2, from: DUMMY.date, to: DUMMY.date },
        DUMMY.page,
      ],
    },
  )
  async deliveryPage(
    tenantId: string,
    f: DeliveryFilter,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<[(WebhookDelivery & { eventType: string })[], number]> {
    const where = ['d.tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.subscriptionId) add('d.subscription_id = ?', f.subscriptionId);
    if (f.status) add('d.status = ?', f.status);
    if (f.eventId) add('d.event_id = ?', f.eventId);
    if (f.from) add('d.created_at >= ?', f.from);
    if (f.to) add('d.created_at < ?', f.to);
    const manager = this.manager(em);
    const [{ total }]: { total: number }[] = await manager.query(
      `SELECT count(*)::int AS total FROM webhook_deliveries d WHERE ${where.join(' AND ')}`,
      params,
    );
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
       WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, page.offset, page.limit],
    );
    return [
      rows.map((r) =>
        Object.assign(new WebhookDelivery(), {
          id: r.id,
          tenantId: r.tenant_id,
          subscriptionId: r.subscription_id,
          eventId: r.event_id,
          status: r.status,
          attempts: r.attempts,
          nextAttemptAt: r.next_attempt_at,
          lastStatusCode: r.last_status_code,
          lastError: r.last_error,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          deliveredAt: r.delivered_at,
          eventType: r.event_type as string,
        }),
      ),
      total,
    ];
  }

  /** The attempts of these deliveries, oldest first. */
  @GenerateSql({ params: [[DUMMY.uuid]] })
  attemptsOf(deliveryIds: string[], em?: EntityManager): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.manager(em)
      .getRepository(WebhookAttempt)
      .createQueryBuilder('a')
      .where('a.deliveryId IN (:...ids)', { ids: deliveryIds })
      .orderBy('a.attemptedAt', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getMany();
  }

  /**
   * Queues deliveries again, now, with a new retry schedule (their attempts stay listed): one by
   * id, or every failed one (dead, or waiting for a retry after a failure) of a subscription in a
   * window of creation times. How many.
   */
  @GenerateSql(
    { params: [DUMMY.tenant, { deliveryId: DUMMY.uuid }, DUMMY.date] },
    { name: 'window', params: [DUMMY.tenant, { subscriptionId: DUMMY.uuid, from: DUMMY.date, to: DUMMY.date }, DUMMY.date] },
  )
  async requeue(
    tenantId: string,
    target: { deliveryId: string } | { subscriptionId: string; from: Date; to: Date },
    now: Date,
    em?: EntityManager,
  ): Promise<number> {
    const t =
      'deliveryId' in target
        ? {
            subscription: 'SELECT subscription_id FROM webhook_deliveries WHERE id = $2',
            where: "d.id = $2 AND d.status <> 'delivering'",
            params: [target.deliveryId],
          }
        : {
            subscription: '$2',
            where:
              "d.subscription_id = $2 AND d.created_at >= $3 AND d.created_at < $4 AND (d.status = 'dead' OR (d.status = 'pending' AND d.attempts > 0))",
            params: [target.subscriptionId, target.from, target.to],
          };
    const at = `$${t.params.length + 2}`;
    // Paused while the subscription is inactive, read under a share lock: a change of `active` at
    // the same time (which pauses or resumes after its update) runs wholly before or after this.
    const [, n]: [unknown[], number] = await this.manager(em).query(
      `WITH s AS (SELECT id, active FROM webhook_subscriptions WHERE tenant_id = $1 AND id = (${t.subscription}) FOR SHARE)
       UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, paused = NOT s.active, next_attempt_at = ${at}, updated_at = ${at}
       FROM s WHERE d.subscription_id = s.id AND d.tenant_id = $1 AND ${t.where}`,
      [tenantId, ...t.params, now],
    );
    return n;
  }

  /**
   * Deletes up to `limit` of the deliveries that finished (delivered or dead) before `before`, the
   * oldest first, with their attempts (cascade). How many it deleted.
   */
  @GenerateSql({ params: [DUMMY.date, 1000] })
  async deleteFinishedBefore(before: Date, limit: number, em?: EntityManager): Promise<number> {
    const [row]: { n: number }[] = await this.manager(em).query(
      `WITH gone AS (
         DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
            WHERE status IN ('delivered', 'dead') AND updated_at < $1
            ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, limit],
    );
    return row.n;
  }
}
