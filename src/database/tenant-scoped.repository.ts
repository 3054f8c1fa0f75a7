import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { idOf, refOf } from '../common/validation/uuid.js';
import { findOneFast } from './find-one-fast.js';
import { BaseRepository, DUMMY, GenerateSql } from './repository.js';

/** A row of a tenant-owned table: its tenant and its own id. */
export interface TenantRow extends ObjectLiteral {
  tenantId: string;
  id: string;
}

/** A row to write, which must name its tenant (the tenant-first rule for inserts and saves). */
export type InTenant<T> = T & { tenantId: string };

interface Scope {
  entity: EntityTarget<ObjectLiteral>;
  slug?: string;
}
const scopes = new WeakMap<abstract new (...args: never[]) => unknown, Scope>();

/**
 * Declares the table of a `TenantScopedRepository` and, when its rows have one, the column that
 * holds their slug (stored lower-case); registers the SQL of the lookups it inherits.
 */
export function TenantScoped<T extends TenantRow>(entity: EntityTarget<T>, opts: { slug?: keyof T & string } = {}): ClassDecorator {
  return (target) => {
    const cls = target as unknown as abstract new (...args: never[]) => unknown;
    scopes.set(cls, { entity, slug: opts.slug });
    GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })(cls.prototype as object, 'findById', {});
    if (opts.slug) GenerateSql({ params: [DUMMY.tenant, 'guild'] })(cls.prototype as object, 'findByIdOrSlug', {});
  };
}

/**
 * The base of a repository of one tenant-owned table (twenty's `WorkspaceScopedRepository`): its
 * lookups take the tenant first and put it in every WHERE, so a row of another tenant is never
 * found, and they take a key as it arrives in a path (`{communityId}` holds an id or a slug), so
 * no caller tells the two apart. The class is declared with `@TenantScoped(Entity, { slug })`;
 * test/architecture/tenant-scope.spec.ts holds every public method of a subclass to the tenant
 * first.
 */
export abstract class TenantScopedRepository<T extends TenantRow> extends BaseRepository {
  protected constructor(dataSource: DataSource) {
    super(dataSource);
  }

  private get scope(): Scope {
    const scope = scopes.get(this.constructor as abstract new (...args: never[]) => unknown);
    if (!scope) throw new Error(`${this.constructor.name} extends TenantScopedRepository without @TenantScoped(Entity)`);
    return scope;
  }

  /** The tenant's row with this id (any case); null for another tenant's id or a key that is not a uuid. */
  findById(tenantId: string, id: string, em?: EntityManager): Promise<T | null> {
    const key = idOf(id);
    return key ? this.findWhere(tenantId, { id: key }, em) : Promise.resolve(null);
  }

  /**
   * The tenant's row addressed by `key`: a uuid is its id, anything else its slug (matched
   * case-insensitively); null when neither matches, or when the table has no slug and `key` is not
   * an id.
   */
  findByIdOrSlug(tenantId: string, key: string, em?: EntityManager): Promise<T | null> {
    const ref = refOf(key);
    if (!ref) return Promise.resolve(null);
    if ('id' in ref) return this.findWhere(tenantId, { id: ref.id }, em);
    const { slug } = this.scope;
    return slug ? this.findWhere(tenantId, { [slug]: ref.key }, em) : Promise.resolve(null);
  }

  /** One row of the tenant matching plain columns (`findOneFast`, the tenant added to `where`). */
  protected findWhere(tenantId: string, where: Record<string, unknown>, em?: EntityManager): Promise<T | null> {
    return findOneFast(
      this.manager(em),
      this.scope.entity as EntityTarget<T>,
      { ...where, tenantId } as Partial<Record<keyof T & string, unknown>>,
    );
  }
}
