import { ReplicaReads } from '../database/replica-reads.js';
import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { DomainEvents } from '../common/events/domain-events.js';
import { DomainError } from '../common/errors/domain-error.js';
import { onConstraintViolation, uniqueViolation } from '../database/repository.js';
import type { AdminUserDto } from './dto/admin-user.dto.js';
import type { User } from './entities/user.entity.js';
import { TenantsService } from '../tenants/tenants.service.js';
import { handleSkeleton, reservedSkeletons } from './reserved-handles.js';
import { UsersRepository } from './users.repository.js';
import { UserErrors } from './users.errors.js';
import './users.events.js';
import { idOf } from '../common/validation/uuid.js';

export const HANDLE_MAX = 32;

/** Turns any string into handle characters (letters, digits, `_`, `.`, `-`). */
export function sanitizeHandle(raw: string): string {
  const cleaned = raw
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[_.-]+/, '')
    .slice(0, HANDLE_MAX);
  return cleaned.length >= 3 ? cleaned : `user_${cleaned}`.slice(0, HANDLE_MAX);
}

@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly domainEvents: DomainEvents,
    private readonly tenants: TenantsService,
    private readonly replicas: ReplicaReads,
  ) {}

  /**
   * The user a public page names: by id, handle or login username (case-insensitive), tried in
   * that order. Read from a replica when one is fresh enough: a public page tolerates lag.
   */
  findPublic(tenantId: string, ref: string): Promise<User | null> {
    return this.replicas.read(async (em) =>
      idOf(ref)
        ? this.repo.findById(tenantId, ref, em)
        : ((await this.repo.findByHandle(tenantId, ref.toLowerCase(), em)) ??
          (await this.repo.findByUsername(tenantId, ref.toLowerCase(), em))),
    );
  }

  /** Whether `handle` reads as one the tenant reserves (src/users/reserved-handles.ts). */
  async isReservedHandle(tenantId: string, handle: string): Promise<boolean> {
    const tenant = await this.tenants.findByRef(tenantId);
    return tenant !== null && reservedSkeletons(tenant).has(handleSkeleton(handle));
  }

  private reservedError(handle: string): DomainError {
    return new DomainError(UserErrors.handle_reserved, `The handle "${handle.slice(0, 40)}" is reserved in this tenant; choose another`);
  }

  findById(tenantId: string, id: string, em?: EntityManager): Promise<User | null> {
    return this.repo.findById(tenantId, id, em);
  }

  /** Whether the user exists in the tenant, read in the caller's transaction when given one. */
  async exists(tenantId: string, id: string, em?: EntityManager): Promise<boolean> {
    return this.repo.exists(tenantId, id, em);
  }

  /** Which of these ids are users of the tenant. */
  existing(tenantId: string, ids: string[]): Promise<Set<string>> {
    return this.repo.existing(tenantId, ids);
  }

  /** The handle and display name of each of these ids that is a user of the tenant, by id. */
  async names(tenantId: string, ids: string[]): Promise<Map<string, { handle: string; displayName: string | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repo.findNames(tenantId, [...new Set(ids)]);
    return new Map(rows.map((u) => [u.id, { handle: u.handle, displayName: u.displayName }]));
  }

  async getById(tenantId: string, id: string): Promise<User> {
    const user = await this.findById(tenantId, id);
    if (!user) throw new DomainError(UserErrors.user_not_found);
    return user;
  }

  /** A user by id or handle, as the management API shows it. */
  async getAdmin(tenantId: string, ref: string): Promise<AdminUserDto> {
    const user = idOf(ref) ? await this.findById(tenantId, ref) : ref.length <= HANDLE_MAX ? await this.findByHandle(tenantId, ref) : null;
    if (!user) throw new DomainError(UserErrors.user_not_found, `No user ${ref.slice(0, 64)} in this tenant`);
    return { userId: user.id, handle: user.handle, displayName: user.displayName, username: user.username, createdAt: user.createdAt };
  }

  findByUsername(tenantId: string, username: string): Promise<User | null> {
    return this.repo.findByUsername(tenantId, username.toLowerCase());
  }

  findByHandle(tenantId: string, handle: string, em?: EntityManager): Promise<User | null> {
    return this.repo.findByHandle(tenantId, handle.toLowerCase(), em);
  }

  /**
   * Changes the display name and/or handle of a user inside the caller's transaction (the caller
   * validates the handle's characters). A handle another user of the tenant holds is a 409.
   */
  async updateIdentity(
    em: EntityManager,
    tenantId: string,
    userId: string,
    changes: { displayName?: string | null; handle?: string },
  ): Promise<void> {
    const set: Partial<Pick<User, 'displayName' | 'handle' | 'handleNormalized'>> = {};
    if (changes.displayName !== undefined) set.displayName = changes.displayName;
    if (changes.handle !== undefined) {
      // A reserved handle the user already holds (taken before it was reserved) may be sent back unchanged.
      if (
        (await this.isReservedHandle(tenantId, changes.handle)) &&
        (await this.findById(tenantId, userId, em))?.handleNormalized !== changes.handle.toLowerCase()
      )
        throw this.reservedError(changes.handle);
      Object.assign(set, { handle: changes.handle, handleNormalized: changes.handle.toLowerCase() });
    }
    if (Object.keys(set).length === 0) return;
    const affected = await onConstraintViolation(() => this.repo.update(tenantId, userId, set, em), {
      uq_users_tenant_handle: () => new DomainError(UserErrors.handle_taken, `Handle "${changes.handle}" is already taken`),
    });
    if (!affected) throw new DomainError(UserErrors.user_not_found);
    await this.domainEvents.publish(em, 'user.identity-changed', { tenantId, userId });
  }

  /**
   * Creates a user inside the caller's transaction. The handle is made unique by appending a
   * random suffix when the desired one is taken; a taken username is a 409. A reserved handle is
   * a 400 when the player chose it (`handleChosen`), else (a name from a provider's claims) the
   * user gets a neutral one.
   */
  async create(
    em: EntityManager,
    input: { tenantId: string; handle: string; handleChosen?: boolean; username?: string; passwordHash?: string; displayName?: string },
  ): Promise<User> {
    let base = sanitizeHandle(input.handle);
    if (await this.isReservedHandle(input.tenantId, base)) {
      if (input.handleChosen) throw this.reservedError(input.handle);
      base = `user_${randomInt(1000, 9999)}`;
    }
    for (let attempt = 0; attempt < 8; attempt++) {
      const handle = attempt === 0 ? base : `${base.slice(0, HANDLE_MAX - 5)}_${randomInt(1000, 9999)}`;
      const user = {
        tenantId: input.tenantId,
        username: input.username ?? null,
        usernameNormalized: input.username?.toLowerCase() ?? null,
        passwordHash: input.passwordHash ?? null,
        handle,
        handleNormalized: handle.toLowerCase(),
        displayName: input.displayName ?? null,
      };
      let created: User;
      try {
        created = await this.repo.insert(user, em);
      } catch (e) {
        const constraint = uniqueViolation(e);
        if (constraint === 'uq_users_tenant_username')
          throw new DomainError(UserErrors.username_taken, `Username "${input.username}" is already taken`);
        if (constraint !== 'uq_users_tenant_handle') throw e;
        continue;
      }
      await this.domainEvents.publish(em, 'user.registered', { tenantId: input.tenantId, userId: created.id, handle: created.handle });
      return created;
    }
    throw new DomainError(UserErrors.handle_taken, `Could not allocate a handle from "${input.handle}"`);
  }
}
