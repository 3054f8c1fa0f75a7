import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

export interface OverviewCounts {
  logins: number;
  newPlayers: number;
  grants: number;
  purchases: number;
  questCompletions: number;
  pendingReviews: number;
}

/**
 * The console's overview: counts of the tenant's activity since an instant, in one statement.
 * Reads only, each count from its module's table: `refresh_tokens` (auth: one per session
 * started), `users`, `admin_audit_log` (audit: the management API's grants, whatever reason they
 * give the ledger), `store_purchases`
 * (store), `quest_completions` and `quest_task_progress` (quests: submissions waiting for review).
 */
@Injectable()
export class OverviewReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, new Date('2026-01-01T00:00:00Z')] })
  async counts(tenantId: string, since: Date): Promise<OverviewCounts> {
    const [row] = await this.manager().query<Record<keyof OverviewCounts, string>[]>(
      `SELECT
         (SELECT count(*) FROM refresh_tokens WHERE tenant_id = $1 AND created_at >= $2) AS "logins",
         (SELECT count(*) FROM users WHERE tenant_id = $1 AND created_at >= $2) AS "newPlayers",
         (SELECT count(*) FROM admin_audit_log WHERE tenant_id = $1 AND created_at >= $2 AND method = 'POST' AND route = '/v1/admin/resources/grants' AND status_code BETWEEN 200 AND 299) AS "grants",
         (SELECT count(*) FROM store_purchases WHERE tenant_id = $1 AND created_at >= $2) AS "purchases",
         (SELECT count(*) FROM quest_completions WHERE tenant_id = $1 AND completed_at >= $2) AS "questCompletions",
         (SELECT count(*) FROM quest_task_progress WHERE tenant_id = $1 AND state = 'pending') AS "pendingReviews"`,
      [tenantId, since],
    );
    return {
      logins: Number(row.logins),
      newPlayers: Number(row.newPlayers),
      grants: Number(row.grants),
      purchases: Number(row.purchases),
      questCompletions: Number(row.questCompletions),
      pendingReviews: Number(row.pendingReviews),
    };
  }
}
