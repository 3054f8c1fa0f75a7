import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DomainError } from '../common/errors/domain-error.js';
import { BaseRepository, DUMMY, GenerateSql, onConstraintViolation } from '../database/repository.js';
import { StoreRequirement } from './entities/store-requirement.entity.js';
import { RequirementErrors } from './requirements.errors.js';

/** A user's saved data of one requirement, as stored (plain, or encrypted when personal). */
export interface SavedDataRow {
  requirement_id: string;
  data: Record<string, unknown> | null;
  data_encrypted: string | null;
}

/** Requirement definitions (store_requirements) and users' saved data (store_saved_requirement_data). */
@Injectable()
export class RequirementsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Inserts a requirement; a key the tenant already has is 409 `requirement_key_taken`. */
  @GenerateSql({
    params: [{ tenantId: DUMMY.tenant, key: 'shipping', name: 'Shipping', description: '', kind: 'data', schema: {}, personalData: true }],
  })
  create(row: Partial<StoreRequirement>, em?: EntityManager): Promise<StoreRequirement> {
    const repo = this.manager(em).getRepository(StoreRequirement);
    return onConstraintViolation(() => repo.save(repo.create(row)), {
      uq_store_requirements_tenant_key: () =>
        new DomainError(RequirementErrors.requirement_key_taken, `The tenant already has a requirement "${row.key}"`),
    });
  }

  /** A page of the tenant's requirements, oldest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.page] })
  page(tenantId: string, page: PageRequest, em?: EntityManager): Promise<[StoreRequirement[], number]> {
    return this.manager(em)
      .getRepository(StoreRequirement)
      .findAndCount({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  /** The tenant's requirements among `ids` (valid lowercase uuids, at least one), in no order. */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid2]] })
  findByIds(tenantId: string, ids: string[], em?: EntityManager): Promise<StoreRequirement[]> {
    return this.manager(em)
      .getRepository(StoreRequirement)
      .createQueryBuilder('r')
      .where('r.tenantId = :tenantId AND r.id IN (:...ids)', { tenantId, ids })
      .getMany();
  }

  /** The user's saved data of these requirements (as stored). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, [DUMMY.uuid2]] })
  savedData(tenantId: string, userId: string, requirementIds: string[], em?: EntityManager): Promise<SavedDataRow[]> {
    return this.manager(em).query(
      'SELECT requirement_id, data, data_encrypted FROM store_saved_requirement_data WHERE tenant_id = $1 AND user_id = $2 AND requirement_id = ANY($3::uuid[])',
      [tenantId, userId, requirementIds],
    );
  }

  /** Keeps (replaces) the user's data of a requirement: `data` in plain, or `encrypted`. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, { a: 1 }, null, DUMMY.date] })
  async saveData(
    tenantId: string,
    userId: string,
    requirementId: string,
    data: Record<string, unknown> | null,
    encrypted: string | null,
    now: Date,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO store_saved_requirement_data (user_id, requirement_id, tenant_id, data, data_encrypted, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, requirement_id) DO UPDATE SET data = EXCLUDED.data, data_encrypted = EXCLUDED.data_encrypted, updated_at = EXCLUDED.updated_at`,
      [userId, requirementId, tenantId, data, encrypted, now],
    );
  }
}
