import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import type { ResourceKind } from './entities/resource-type.entity.js';

/**
 * Whether a ledger operation's user and resource type exist in its tenant, and the type's kind, in
 * one round trip on the operation's own transaction. Reads `users` (users module) and
 * `resource_types` (this module).
 */
@Injectable()
export class LedgerTargetsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async exist(
    tenantId: string,
    userId: string,
    resourceTypeId: string,
    em?: EntityManager,
  ): Promise<{ user: boolean; type: ResourceKind | null }> {
    const found: { user_ok: boolean; type_kind: ResourceKind | null }[] = await this.manager(em).query(
      `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND tenant_id = $3) AS user_ok,
              (SELECT kind FROM resource_types WHERE id = $2 AND tenant_id = $3) AS type_kind`,
      [userId, resourceTypeId, tenantId],
    );
    return { user: found[0].user_ok, type: found[0].type_kind };
  }
}
