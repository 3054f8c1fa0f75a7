import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DUMMY, GenerateSql } from '../database/repository.js';

/**
 * Reads that join prizes with other modules' tables: a prize's owners with their handles
 * (`prize_awards`, this module; `users`, users module) and the requirement definitions the
 * tenant's prizes ask for (`prizes`, this module; `store_requirements`, requirements module).
 */
@Injectable()
export class PrizeViewsReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Everyone who owns the prize with their units, earliest first, and how many they are. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async owners(
    prizeId: string,
    page: PageRequest,
  ): Promise<{ rows: { user_id: string; handle: string; q: number; first: Date }[]; total: number }> {
    const [rows, [{ n }]] = await Promise.all([
      this.dataSource.query<{ user_id: string; handle: string; q: number; first: Date }[]>(
        `SELECT a.user_id, u.handle, SUM(a.quantity)::int AS q, MIN(a.created_at) AS first
         FROM prize_awards a JOIN users u ON u.id = a.user_id WHERE a.prize_id = $1
         GROUP BY a.user_id, u.handle ORDER BY first, a.user_id LIMIT $2 OFFSET $3`,
        [prizeId, page.limit, page.offset],
      ),
      this.dataSource.query<{ n: number }[]>('SELECT COUNT(DISTINCT user_id)::int AS n FROM prize_awards WHERE prize_id = $1', [prizeId]),
    ]);
    return { rows, total: n };
  }

  /** The ids of the requirement definitions any prize of the tenant asks for, oldest first. */
  @GenerateSql({ params: [DUMMY.tenant] })
  async requirementIds(tenantId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT r.id, r.created_at FROM prizes p CROSS JOIN LATERAL jsonb_array_elements_text(p.requirement_ids) AS rid(v)
       JOIN store_requirements r ON r.id = rid.v::uuid AND r.tenant_id = p.tenant_id WHERE p.tenant_id = $1 ORDER BY r.created_at, r.id`,
      [tenantId],
    );
    return rows.map((r) => r.id);
  }
}
