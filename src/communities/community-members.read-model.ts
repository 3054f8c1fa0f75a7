import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { likeContaining } from '../common/sql/like.js';
import { DUMMY, GenerateSql } from '../database/repository.js';
import type { CommunityMemberDto } from './dto/membership.dto.js';

/**
 * The members of a community with who they are, for the management API's member list. Reads
 * `community_members` (this module) with `users` (users module): one page with its total.
 */
@Injectable()
export class CommunityMembersReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest members first; `query` matches a part of the handle or the display name, any case. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'ali', DUMMY.page] })
  async page(
    tenantId: string,
    communityId: string,
    query: string,
    page: PageRequest,
  ): Promise<{ rows: CommunityMemberDto[]; total: number }> {
    const params: unknown[] = [tenantId, communityId];
    let from = `FROM community_members m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 AND m.community_id = $2`;
    if (query !== '') {
      params.push(likeContaining(query));
      from += ` AND (u.handle ILIKE $3 OR u.display_name ILIKE $3)`;
    }
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.dataSource.query<CommunityMemberDto[]>(
        `SELECT u.id AS "userId", u.handle, u.display_name AS "displayName", m.joined_at AS "joinedAt" ${from}
         ORDER BY m.joined_at DESC, u.id ASC OFFSET $${n + 1} LIMIT $${n + 2}`,
        [...params, page.offset, page.limit],
      ),
      this.dataSource.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, params),
    ]);
    return { rows, total: count[0].n };
  }
}
