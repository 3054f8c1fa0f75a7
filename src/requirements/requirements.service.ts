import { RequirementErrors } from './requirements.errors.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import type { CreateRequirementDto, RequirementDto, UserRequirementDto } from './dto/requirement.dto.js';
import type { StoreRequirement } from './entities/store-requirement.entity.js';
import { RequirementConditionsReadModel } from './requirement-conditions.read-model.js';
import { RequirementsRepository } from './requirements.repository.js';
import type { ErrorDefinition } from '../common/errors/error-catalog.js';
import {
  compileRequirementSchema,
  REQUIREMENT_DATA_MAX_BYTES,
  type RequirementDataInput,
  type RequirementValidator,
} from './requirement-rules.js';
import { idOf } from '../common/validation/uuid.js';

/** Requirement data resolved for one purchase: what to validate, save and keep with the purchase. */
export interface ResolvedRequirementData {
  requirement: StoreRequirement;
  data: Record<string, unknown>;
  shouldSave: boolean;
}

export interface RequirementFailure {
  requirementId: string;
  key: string;
  reasons: string[];
}

export function toRequirementDto(r: StoreRequirement): RequirementDto {
  return {
    id: r.id,
    key: r.key,
    name: r.name,
    description: r.description,
    kind: r.kind,
    schema: r.schema,
    personalData: r.personalData,
    itemId: r.itemId,
    resourceTypeId: r.resourceTypeId,
    minAmount: r.minAmount,
    createdAt: r.createdAt,
  };
}

const savedContext = (tenantId: string, userId: string, requirementId: string) =>
  `saved-requirement:${tenantId}:${userId}:${requirementId}`;

/**
 * Requirement definitions (shared by store listings and prizes), the checks of a buyer's data
 * against their JSON schemas (ajv), the conditions (owning an item, a minimum earned amount, read
 * from the inventory and resource tables without writing them), and the data users saved.
 */
@Injectable()
export class RequirementsService {
  private readonly validators = new Map<string, { version: number; validator: RequirementValidator }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: RequirementsRepository,
    private readonly conditions: RequirementConditionsReadModel,
    private readonly encryption: EncryptionService,
    private readonly clock: Clock,
  ) {}

  // ------------------------------------------------------------------ definitions (management)

  async create(tenantId: string, dto: CreateRequirementDto): Promise<RequirementDto> {
    const invalid = (why: string) => new DomainError(RequirementErrors.invalid_requirement, why);
    const row: Partial<StoreRequirement> = {
      tenantId,
      key: dto.key,
      name: dto.name,
      description: dto.description ?? '',
      kind: dto.kind,
      schema: null,
      personalData: dto.personalData ?? true,
      itemId: null,
      resourceTypeId: null,
      minAmount: null,
    };
    if (dto.kind === 'data') {
      if (!dto.schema) throw invalid('A data requirement needs a JSON schema');
      if (dto.itemId || dto.resourceTypeId || dto.minAmount !== undefined) throw invalid('A data requirement takes only a schema');
      try {
        compileRequirementSchema(dto.schema);
      } catch (e) {
        throw invalid(`Unusable schema: ${(e as Error).message}`);
      }
      row.schema = dto.schema;
    } else if (dto.kind === 'owns_item') {
      if (!dto.itemId || dto.schema || dto.resourceTypeId || dto.minAmount !== undefined)
        throw invalid('An owns_item requirement takes only an itemId');
      if (!(await this.conditions.itemExists(tenantId, dto.itemId))) throw invalid(`No item ${dto.itemId} in this tenant`);
      row.itemId = dto.itemId;
    } else {
      if (!dto.resourceTypeId || dto.minAmount === undefined || dto.schema || dto.itemId)
        throw invalid('A min_resource requirement takes a resourceTypeId and a minAmount');
      if (!(await this.conditions.resourceTypeExists(tenantId, dto.resourceTypeId)))
        throw invalid(`No resource type ${dto.resourceTypeId} in this tenant`);
      row.resourceTypeId = dto.resourceTypeId;
      row.minAmount = dto.minAmount;
    }
    return toRequirementDto(await this.repo.create(row));
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<RequirementDto>> {
    const [rows, total] = await this.repo.page(tenantId, page);
    return toPage(rows.map(toRequirementDto), total, page);
  }

  async get(tenantId: string, id: string): Promise<RequirementDto> {
    const [r] = await this.findMany(this.dataSource.manager, tenantId, [id]);
    if (!r) throw new DomainError(RequirementErrors.requirement_not_found, `No requirement ${id.slice(0, 64)} in this tenant`);
    return toRequirementDto(r);
  }

  /** The tenant's requirements among `ids`, in the order of `ids` (unknown ids are left out). */
  async findMany(em: EntityManager, tenantId: string, ids: readonly string[]): Promise<StoreRequirement[]> {
    const valid = [...new Set(ids.flatMap((i) => idOf(i) ?? []))];
    if (valid.length === 0) return [];
    const rows = await this.repo.findByIds(tenantId, valid, em);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return valid.map((i) => byId.get(i)).filter((r): r is StoreRequirement => r !== undefined);
  }

  /** Throws `error` (400) naming the first id that is not a requirement of the tenant. */
  async assertAllExist(em: EntityManager, tenantId: string, ids: readonly string[], error: ErrorDefinition): Promise<string[]> {
    const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
    const found = new Set((await this.findMany(em, tenantId, unique)).map((r) => r.id));
    const missing = unique.find((i) => !found.has(i));
    if (missing) throw new DomainError(error, `No requirement ${missing} in this tenant`);
    return unique;
  }

  // ------------------------------------------------------------------ users' data

  toUserDto(r: StoreRequirement, saved: ReadonlyMap<string, Record<string, unknown>>): UserRequirementDto {
    return { ...toRequirementDto(r), savedData: saved.get(r.id) ?? null };
  }

  /** The data `userId` saved for these requirements (decrypted), by requirement id. */
  async savedData(
    em: EntityManager,
    tenantId: string,
    userId: string,
    requirementIds: readonly string[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    if (requirementIds.length === 0) return out;
    const rows = await this.repo.savedData(tenantId, userId, [...requirementIds], em);
    for (const r of rows) {
      const data =
        r.data_encrypted !== null
          ? (JSON.parse(await this.encryption.decrypt(r.data_encrypted, savedContext(tenantId, userId, r.requirement_id))) as Record<
              string,
              unknown
            >)
          : r.data;
      if (data) out.set(r.requirement_id, data);
    }
    return out;
  }

  /** Keeps (replaces) the user's data for a requirement; encrypted when the requirement holds personal data. */
  async saveData(
    em: EntityManager,
    tenantId: string,
    userId: string,
    requirement: StoreRequirement,
    data: Record<string, unknown>,
  ): Promise<void> {
    const encrypted = requirement.personalData
      ? await this.encryption.encrypt(JSON.stringify(data), savedContext(tenantId, userId, requirement.id))
      : null;
    await this.repo.saveData(tenantId, userId, requirement.id, encrypted === null ? data : null, encrypted, this.clock.now(), em);
  }

  // ------------------------------------------------------------------ checks

  private validatorFor(r: StoreRequirement): RequirementValidator {
    const version = r.updatedAt.getTime();
    const cached = this.validators.get(r.id);
    if (cached && cached.version === version) return cached.validator;
    const validator = compileRequirementSchema(r.schema);
    this.validators.set(r.id, { version, validator });
    return validator;
  }

  /**
   * Matches the request's requirement data to `requirements` (by id or key) and validates it:
   * every `data` requirement needs data (given, or saved earlier), matching its schema; data for
   * anything else, repeated entries and oversized data are refused. Throws 400
   * `requirement_data_invalid` naming the failing requirements and why (`details.failures`).
   */
  resolveData(
    requirements: readonly StoreRequirement[],
    items: readonly RequirementDataInput[],
    saved: ReadonlyMap<string, Record<string, unknown>>,
  ): ResolvedRequirementData[] {
    const failures: RequirementFailure[] = [];
    const given = new Map<string, RequirementDataInput>();
    for (const item of items) {
      const ref = item.requirementId.toLowerCase();
      const r = requirements.find((x) => x.id === ref || x.key === ref);
      if (!r) {
        failures.push({ requirementId: item.requirementId, key: '', reasons: ['not a requirement of this listing'] });
      } else if (given.has(r.id)) {
        failures.push({ requirementId: r.id, key: r.key, reasons: ['given more than once'] });
      } else if (r.kind !== 'data') {
        failures.push({ requirementId: r.id, key: r.key, reasons: [`a ${r.kind} requirement takes no data`] });
      } else {
        given.set(r.id, item);
      }
    }
    const out: ResolvedRequirementData[] = [];
    for (const r of requirements) {
      if (r.kind !== 'data') continue;
      const item = given.get(r.id);
      const data = item?.data ?? saved.get(r.id);
      if (!data) {
        failures.push({ requirementId: r.id, key: r.key, reasons: ['data is required (none given and none saved)'] });
        continue;
      }
      if (Buffer.byteLength(JSON.stringify(data)) > REQUIREMENT_DATA_MAX_BYTES) {
        failures.push({ requirementId: r.id, key: r.key, reasons: [`data exceeds ${REQUIREMENT_DATA_MAX_BYTES} bytes`] });
        continue;
      }
      const reasons = this.validatorFor(r).validate(data);
      if (reasons.length > 0) failures.push({ requirementId: r.id, key: r.key, reasons });
      else out.push({ requirement: r, data, shouldSave: item?.shouldSave ?? false });
    }
    if (failures.length > 0) {
      const f = failures[0];
      throw new DomainError(
        RequirementErrors.requirement_data_invalid,
        `Requirement ${f.key ? `"${f.key}"` : `"${f.requirementId.slice(0, 64)}"`}: ${f.reasons.join('; ')}`,
        { failures },
      );
    }
    return out;
  }

  /** The condition requirements (`owns_item`, `min_resource`) the user does not meet. */
  async unmetConditions(
    em: EntityManager,
    tenantId: string,
    userId: string,
    requirements: readonly StoreRequirement[],
  ): Promise<StoreRequirement[]> {
    const unmet: StoreRequirement[] = [];
    for (const r of requirements) {
      if (r.kind === 'owns_item') {
        if (!(await this.conditions.ownsItem(tenantId, userId, r.itemId, em))) unmet.push(r);
      } else if (r.kind === 'min_resource') {
        if ((await this.conditions.earned(tenantId, userId, r.resourceTypeId, em)) < (r.minAmount ?? 0)) unmet.push(r);
      }
    }
    return unmet;
  }

  /** Throws 403 `requirement_not_met` for the first condition the user does not meet. */
  async assertConditions(em: EntityManager, tenantId: string, userId: string, requirements: readonly StoreRequirement[]): Promise<void> {
    const [r] = await this.unmetConditions(em, tenantId, userId, requirements);
    if (!r) return;
    const why =
      r.kind === 'owns_item'
        ? `requires owning item ${r.itemId}`
        : `requires having earned at least ${r.minAmount} of resource type ${r.resourceTypeId}`;
    throw new DomainError(RequirementErrors.requirement_not_met, `Requirement "${r.key}" is not met: ${why}`, {
      requirementId: r.id,
      key: r.key,
      kind: r.kind,
    });
  }
}
