import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DUMMY, GenerateSql } from '../database/repository.js';

/**
 * Whether the recipient of an item grant exists in the tenant, read inside the granting
 * transaction (the caller's snapshot, not the pool's).
 *
 * Reads: `users` (users module).
 */
@Injectable()
export class GrantRecipientReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async exists(tenantId: string, userId: string, em?: EntityManager): Promise<boolean> {
    const users: unknown[] = await (em ?? this.dataSource.manager).query('SELECT 1 FROM users WHERE id = $1 AND tenant_id = $2', [
      userId,
      tenantId,
    ]);
    return users.length > 0;
  }
}
