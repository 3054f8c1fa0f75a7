import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import { EntityManager, QueryFailedError, Repository } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { User } from './entities/user.entity.js';
import { UserErrors } from './users.errors.js';

export const HANDLE_MAX = 32;
const isUniqueViolation = (e: unknown, constraint: string) =>
  e instanceof QueryFailedError &&
  (e.driverError as { code?: string; constraint?: string }).code === '23505' &&
  (e.driverError as { constraint?: string }).constraint === constraint;

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
  constructor(@InjectRepository(User) private readonly repo: Repository<User>) {}

  findById(tenantId: string, id: string): Promise<User | null> {
    return this.repo.findOneBy({ tenantId, id });
  }

  /** Whether the user exists in the tenant, read in the caller's transaction when given one. */
  async exists(tenantId: string, id: string, em?: EntityManager): Promise<boolean> {
    return (em ?? this.repo.manager).getRepository(User).existsBy({ tenantId, id });
  }

  async getById(tenantId: string, id: string): Promise<User> {
    const user = await this.findById(tenantId, id);
    if (!user) throw new DomainError(UserErrors.user_not_found);
    return user;
  }

  findByUsername(tenantId: string, username: string): Promise<User | null> {
    return this.repo.findOneBy({ tenantId, usernameNormalized: username.toLowerCase() });
  }

  findByHandle(tenantId: string, handle: string): Promise<User | null> {
    return this.repo.findOneBy({ tenantId, handleNormalized: handle.toLowerCase() });
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
    if (changes.handle !== undefined) Object.assign(set, { handle: changes.handle, handleNormalized: changes.handle.toLowerCase() });
    if (Object.keys(set).length === 0) return;
    try {
      const res = await em.update(User, { tenantId, id: userId }, set);
      if (!res.affected) throw new DomainError(UserErrors.user_not_found);
    } catch (e) {
      if (isUniqueViolation(e, 'uq_users_tenant_handle'))
        throw new DomainError(UserErrors.handle_taken, `Handle "${changes.handle}" is already taken`);
      throw e;
    }
  }

  /**
   * Creates a user inside the caller's transaction. The handle is made unique by appending a
   * random suffix when the desired one is taken; a taken username is a 409.
   */
  async create(
    em: EntityManager,
    input: { tenantId: string; handle: string; username?: string; passwordHash?: string; displayName?: string },
  ): Promise<User> {
    const base = sanitizeHandle(input.handle);
    for (let attempt = 0; attempt < 8; attempt++) {
      const handle = attempt === 0 ? base : `${base.slice(0, HANDLE_MAX - 5)}_${randomInt(1000, 9999)}`;
      const user = em.create(User, {
        tenantId: input.tenantId,
        username: input.username ?? null,
        usernameNormalized: input.username?.toLowerCase() ?? null,
        passwordHash: input.passwordHash ?? null,
        handle,
        handleNormalized: handle.toLowerCase(),
        displayName: input.displayName ?? null,
      });
      try {
        // A savepoint, so that a unique violation does not abort the caller's transaction.
        return await em.transaction((inner) => inner.save(user));
      } catch (e) {
        if (isUniqueViolation(e, 'uq_users_tenant_username'))
          throw new DomainError(UserErrors.username_taken, `Username "${input.username}" is already taken`);
        if (!isUniqueViolation(e, 'uq_users_tenant_handle')) throw e;
      }
    }
    throw new DomainError(UserErrors.handle_taken, `Could not allocate a handle from "${input.handle}"`);
  }
}
