import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../../database/repository.js';

export interface NewGameEvent {
  userId: string;
  type: string;
  value: number;
  occurredAt: Date;
  idempotencyKey: string;
}

/** Players' game events (`game_events`), posted by game servers, counted by `game_event` tasks. */
@Injectable()
export class GameEventsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Inserts the events in one statement (their users are the tenant's: the caller checked); an
   * event whose idempotency key the tenant holds already is left out. The keys stored now.
   */
  @GenerateSql({
    params: [DUMMY.tenant, [{ userId: DUMMY.uuid, type: 'match_won', value: 1, occurredAt: DUMMY.date, idempotencyKey: 'match-1' }]],
  })
  async insertMany(tenantId: string, events: NewGameEvent[], em?: EntityManager): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const rows: { idempotency_key: string }[] = await this.manager(em).query(
      `INSERT INTO game_events (tenant_id, user_id, type, value, occurred_at, idempotency_key)
       SELECT $1, e.user_id, e.type, e.value, e.occurred_at, e.idempotency_key
       FROM unnest($2::uuid[], $3::varchar[], $4::bigint[], $5::timestamptz[], $6::varchar[])
         AS e(user_id, type, value, occurred_at, idempotency_key)
       ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
       RETURNING idempotency_key`,
      [
        tenantId,
        events.map((e) => e.userId),
        events.map((e) => e.type),
        events.map((e) => e.value),
        events.map((e) => e.occurredAt),
        events.map((e) => e.idempotencyKey),
      ],
    );
    return new Set(rows.map((r) => r.idempotency_key));
  }

  /** The count or sum of the player's events of a type that occurred in [from, until) (either open). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'match_won', 'count', DUMMY.date, null] })
  async aggregate(
    tenantId: string,
    userId: string,
    type: string,
    aggregate: 'count' | 'sum',
    from: Date | null,
    until: Date | null,
    em?: EntityManager,
  ): Promise<number> {
    const measure = aggregate === 'count' ? 'count(*)' : 'coalesce(sum(value), 0)';
    const [row]: { n: string }[] = await this.manager(em).query(
      `SELECT ${measure}::text AS n FROM game_events
       WHERE tenant_id = $1 AND user_id = $2 AND type = $3
         AND ($4::timestamptz IS NULL OR occurred_at >= $4) AND ($5::timestamptz IS NULL OR occurred_at < $5)`,
      [tenantId, userId, type, from, until],
    );
    return Number(row.n);
  }
}
