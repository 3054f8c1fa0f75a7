import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { likePrefix } from '../common/sql/like.js';
import { preparedQuery } from '../database/prepared-query.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { AdminAuditEntry } from './entities/admin-audit-entry.entity.js';

export type NewAuditEntry = Omit<AdminAuditEntry, 'id'>;

export interface AuditLogFilter {
  /** Entries whose route template starts with this. */
  route?: string;
  method?: string;
  actor?: string;
  from?: Date;
  to?: Date;
}

/** The management audit log (`admin_audit_log`). */
@Injectable()
export class AuditLogRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** One multi-row INSERT for a batch of entries (of any tenants). */
  @GenerateSql({
    params: [
      [
        {
          tenantId: DUMMY.tenant,
          actor: 'api-key:0123456789ab',
          method: 'POST',
          route: '/v1/admin/communities',
          target: {},
          body: { name: 'Acme' },
          statusCode: 201,
          outcome: DUMMY.uuid,
          aborted: false,
          createdAt: DUMMY.date,
        },
      ],
    ],
  })
  async insertMany(entries: NewAuditEntry[], em?: EntityManager): Promise<void> {
    // One array per column, whatever the batch's size: one prepared statement (TypeORM's insert
    // builder spent more CPU building each row's VALUES than the row cost to write).
    const json = (v: object | null) => (v === null ? null : JSON.stringify(v));
    await preparedQuery(
      this.manager(em),
      `INSERT INTO admin_audit_log (tenant_id, actor, method, route, target, body, status_code, outcome, aborted, created_at)
       SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::jsonb[], $7::smallint[],
         $8::varchar[], $9::boolean[], $10::timestamptz[])`,
      [
        entries.map((e) => e.tenantId),
        entries.map((e) => e.actor),
        entries.map((e) => e.method),
        entries.map((e) => e.route),
        entries.map((e) => json(e.target)),
        entries.map((e) => json(e.body)),
        entries.map((e) => e.statusCode),
        entries.map((e) => e.outcome),
        entries.map((e) => e.aborted),
        entries.map((e) => e.createdAt),
      ],
    );
  }

  /** A tenant's entries, newest first. */
  @GenerateSql(
    { params: [DUMMY.tenant, {}, DUMMY.page] },
    {
      name: 'filtered',
      params: [
        DUMMY.tenant,
        { route: '/v1/admin/communities', method: 'POST', actor: 'api-key:0123456789ab', from: DUMMY.date, to: DUMMY.date },
        DUMMY.page,
      ],
    },
  )
  async page(
    tenantId: string,
    filter: AuditLogFilter,
    page: Pick<PageRequest, 'offset' | 'limit'>,
    em?: EntityManager,
  ): Promise<[AdminAuditEntry[], number]> {
    const q = this.manager(em).getRepository(AdminAuditEntry).createQueryBuilder('a').where('a.tenant_id = :tenantId', { tenantId });
    if (filter.route) q.andWhere('a.route LIKE :route', { route: likePrefix(filter.route) });
    if (filter.method) q.andWhere('a.method = :method', { method: filter.method });
    if (filter.actor) q.andWhere('a.actor = :actor', { actor: filter.actor });
    if (filter.from) q.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) q.andWhere('a.created_at < :to', { to: filter.to });
    return q.orderBy('a.created_at', 'DESC').addOrderBy('a.id', 'DESC').offset(page.offset).limit(page.limit).getManyAndCount();
  }

  /** Deletes up to `limit` of the oldest entries (of every tenant) made before `before`; how many it deleted. */
  @GenerateSql({ params: [DUMMY.date, 1000] })
  async deleteBefore(before: Date, limit: number, em?: EntityManager): Promise<number> {
    const [row]: { n: number }[] = await this.manager(em).query(
      `WITH gone AS (
         DELETE FROM admin_audit_log WHERE id IN (
           SELECT id FROM admin_audit_log WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, limit],
    );
    return row.n;
  }
}
