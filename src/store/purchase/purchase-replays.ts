import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error.js';
import type { PurchaseResultDto } from '../dto/purchase.dto.js';
import { StorePurchaseRepository } from '../store-purchase.repository.js';
import { StoreErrors } from '../store.errors.js';
import { toPurchaseDto } from '../store.mappers.js';

/**
 * Idempotent retries: a nonce already used by the user answers the purchase that took it (nothing
 * charged again), the same request or 409 `nonce_reused`.
 */
@Injectable()
export class PurchaseReplays {
  constructor(private readonly purchases: StorePurchaseRepository) {}

  /** The first answer to this nonce, or null when it was never used. */
  async find(
    em: EntityManager,
    tenantId: string,
    userId: string,
    nonce: string,
    fingerprint: string,
    listingId: string,
  ): Promise<PurchaseResultDto | null> {
    const existing = await this.purchases.findByNonce(tenantId, userId, nonce, em);
    if (!existing) return null;
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError(
        StoreErrors.nonce_reused,
        existing.listingId === listingId.toLowerCase()
          ? 'This nonce already bought this listing with other requirement data'
          : 'This nonce was already used for another listing',
        { purchaseId: existing.id },
      );
    }
    return { ...toPurchaseDto(existing, existing.listing?.name ?? ''), replayed: true };
  }

  /** The nonce was taken by a concurrent purchase while this one ran: answer that one. */
  async ofTakenNonce(
    em: EntityManager,
    tenantId: string,
    userId: string,
    nonce: string,
    fingerprint: string,
    listingId: string,
  ): Promise<PurchaseResultDto> {
    const again = await this.find(em, tenantId, userId, nonce, fingerprint, listingId);
    if (again) return again;
    throw new Error('purchase nonce conflict without a visible purchase');
  }
}
