import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AuthRepository } from './auth.repository.js';

export type NonceKind = 'login_token' | 'siwe';

/** Expired rows are deleted on about one consumption in this many. */
const PURGE_ONE_IN = 100;

/**
 * One-time nonces (claimed by `AuthRepository.touchIdentity` in the login's statement): the
 * housekeeping of the rows that can no longer matter.
 */
@Injectable()
export class NonceService {
  constructor(private readonly repo: AuthRepository) {}

  /** After a claim: on about one in PURGE_ONE_IN, deletes the nonces that can no longer be accepted. */
  async purgeSometimes(em: EntityManager, now: Date): Promise<void> {
    if (randomInt(PURGE_ONE_IN) === 0) await this.purgeExpired(em, now);
  }

  /** Deletes the nonces whose tokens can no longer be accepted. Returns how many. */
  purgeExpired(em: EntityManager, now: Date): Promise<number> {
    return this.repo.purgeNonces(now, em);
  }
}
