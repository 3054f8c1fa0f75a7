import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DUMMY, GenerateSql } from '../database/repository.js';
import type { CommunityReferralDto } from './dto/membership.dto.js';

/**
 * The members a user referred into a community, for the referrals route. Reads `referrals` and
 * `users` (users module) with `community_members` (this module): one page with its total.
 */
@Injectable()
export class CommunityReferralsReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.page] })
  async page(
    tenantId: string,
    communityId: string,
    referrerId: string,
    page: PageRequest,
  ): Promise<{ rows: CommunityReferralDto[]; total: number }> {
    const params = [tenantId, communityId, referrerId];
    const from = `FROM referrals r JOIN users u ON u.id = r.referred_id
      JOIN community_members m ON m.community_id = r.community_id AND m.user_id = r.referred_id
      WHERE r.tenant_id = $1 AND r.community_id = $2 AND r.referrer_id = $3`;
    const [rows, count] = await Promise.all([
      this.dataSource.query<CommunityReferralDto[]>(
        `SELECT u.id AS "userId", u.handle, u.display_name AS "displayName", m.joined_at AS "joinedAt" ${from}
         ORDER BY m.joined_at DESC, u.id ASC OFFSET $4 LIMIT $5`,
        [...params, page.offset, page.limit],
      ),
      this.dataSource.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
    ]);
    return { rows, total: count[0].n };
  }
}
