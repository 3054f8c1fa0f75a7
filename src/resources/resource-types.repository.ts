import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { findOneFast } from '../database/find-one-fast.js';
import { DUMMY, GenerateSql, updatedRows } from '../database/repository.js';
import { type InTenant, TenantScoped, TenantScopedRepository } from '../database/tenant-scoped.repository.js';
import { ResourceType } from './entities/resource-type.entity.js';

/** Resource types (XP, gems, an event's score). */
@Injectable()
@TenantScoped(ResourceType)
export class ResourceTypesRepository extends TenantScopedRepository<ResourceType> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The slugs of these types of the tenant (one statement for a page that names several). */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid2]] })
  slugsByIds(tenantId: string, ids: string[], em?: EntityManager): Promise<{ id: string; slug: string }[]> {
    return this.manager(em).query('SELECT id, slug FROM resource_types WHERE tenant_id = $1 AND id = ANY($2::uuid[])', [tenantId, ids]);
  }

  /** A type of the community by id or by slug (lower case), as a prepared statement outside transactions. */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, { slug: 'xp' }], name: 'by slug' },
    { params: [DUMMY.tenant, DUMMY.uuid, { id: DUMMY.uuid2 }], name: 'by id' },
  )
  findInCommunity(
    tenantId: string,
    communityId: string,
    ref: { id: string } | { slug: string },
    em?: EntityManager,
  ): Promise<ResourceType | null> {
    return findOneFast(this.manager(em), ResourceType, { tenantId, communityId, ...ref });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  pageInCommunity(tenantId: string, communityId: string, page: PageRequest, em?: EntityManager): Promise<[ResourceType[], number]> {
    return this.manager(em)
      .getRepository(ResourceType)
      .findAndCount({ where: { tenantId, communityId }, order: { kind: 'ASC', slug: 'ASC' }, skip: page.offset, take: page.limit });
  }

  /** The community's oldest global type (its XP), or null. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  oldestGlobal(tenantId: string, communityId: string, em?: EntityManager): Promise<ResourceType | null> {
    return this.manager(em)
      .getRepository(ResourceType)
      .findOne({ where: { tenantId, communityId, kind: 'global' }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Binds a scoped type of the community to a quest event, unless another event has it: one
   * conditional UPDATE, so of two events taking the type at once the second waits for the first's
   * commit and then matches nothing. True when the type is (now) the event's.
   */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.uuid3], inTransaction: true })
  async bindToQuestEvent(tenantId: string, communityId: string, typeId: string, eventId: string, em?: EntityManager): Promise<boolean> {
    const rows = updatedRows<{ id: string }>(
      await this.manager(em).query(
        `UPDATE resource_types SET quest_event_id = $4, updated_at = CASE WHEN quest_event_id IS NULL THEN now() ELSE updated_at END
       WHERE id = $3 AND tenant_id = $1 AND community_id = $2 AND kind = 'scoped' AND (quest_event_id IS NULL OR quest_event_id = $4)
       RETURNING id`,
        [tenantId, communityId, typeId, eventId],
      ),
    );
    return rows.length > 0;
  }

  /** Writes a type's name, description and image, and nothing else (its event binding may have changed since it was read). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { name: 'XP', description: '', imageUrl: null }] })
  async updateDetails(
    tenantId: string,
    id: string,
    fields: Pick<ResourceType, 'name' | 'description' | 'imageUrl'>,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).getRepository(ResourceType).update({ tenantId, id }, fields);
  }

  /** Inserts a new type or writes a loaded one back. */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: DUMMY.uuid,
        slug: 'xp',
        name: 'XP',
        description: '',
        kind: 'global',
        imageUrl: null,
        questEventId: null,
      },
    ],
  })
  save(type: InTenant<Partial<ResourceType>>, em?: EntityManager): Promise<ResourceType> {
    const repo = this.manager(em).getRepository(ResourceType);
    return repo.save(repo.create(type));
  }
}
