import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DUMMY, GenerateSql } from '../database/repository.js';

/**
 * What requirements check without writing: that an `owns_item` requirement names an item and a
 * `min_resource` one a resource type of the tenant, and whether a user meets them (holdings,
 * earned amounts), read in the caller's transaction.
 *
 * Reads: `inventory_items`, `user_items` (inventory module); `resource_types`, `resource_balances`
 * (resources module).
 */
@Injectable()
export class RequirementConditionsReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(em?: EntityManager): EntityManager {
    return em ?? this.dataSource.manager;
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async itemExists(tenantId: string, itemId: string, em?: EntityManager): Promise<boolean> {
    const found: unknown[] = await this.manager(em).query('SELECT 1 FROM inventory_items WHERE id = $1 AND tenant_id = $2', [
      itemId,
      tenantId,
    ]);
    return found.length > 0;
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async resourceTypeExists(tenantId: string, resourceTypeId: string, em?: EntityManager): Promise<boolean> {
    const found: unknown[] = await this.manager(em).query('SELECT 1 FROM resource_types WHERE id = $1 AND tenant_id = $2', [
      resourceTypeId,
      tenantId,
    ]);
    return found.length > 0;
  }

  /** Whether the user holds at least one unit of the item. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async ownsItem(tenantId: string, userId: string, itemId: string | null, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'SELECT 1 FROM user_items WHERE tenant_id = $1 AND user_id = $2 AND item_id = $3 AND quantity > 0',
      [tenantId, userId, itemId],
    );
    return rows.length > 0;
  }

  /** What the user has earned of the resource type (0 without a balance). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async earned(tenantId: string, userId: string, resourceTypeId: string | null, em?: EntityManager): Promise<number> {
    const rows: { earned: string }[] = await this.manager(em).query(
      'SELECT earned FROM resource_balances WHERE tenant_id = $1 AND user_id = $2 AND resource_type_id = $3',
      [tenantId, userId, resourceTypeId],
    );
    return Number(rows[0]?.earned ?? 0);
  }
}
