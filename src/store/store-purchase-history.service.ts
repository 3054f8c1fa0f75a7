import { Injectable } from '@nestjs/common';
import { type Page, type PageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { UsersService } from '../users/users.service.js';
import type { AdminPurchaseDto, PurchaseDto } from './dto/purchase.dto.js';
import { StorePurchaseRepository } from './store-purchase.repository.js';
import { purchaseDataContext, toPurchaseDto } from './store.mappers.js';

/** Purchase lists: the buyer's own, and the tenant's for fulfilment (with the requirement data decrypted). */
@Injectable()
export class StorePurchaseHistoryService {
  constructor(
    private readonly purchases: StorePurchaseRepository,
    private readonly communities: CommunitiesService,
    private readonly users: UsersService,
    private readonly encryption: EncryptionService,
  ) {}

  /** The user's purchases in the community, newest first. */
  async listPurchases(tenantId: string, userId: string, containerId: string, page: PageRequest): Promise<Page<PurchaseDto>> {
    const community = await this.communities.resolve(tenantId, containerId);
    const [rows, total] = await this.purchases.userPage(tenantId, userId, community.id, page);
    return toPage(
      rows.map((p) => toPurchaseDto(p, p.listing!.name)),
      total,
      page,
    );
  }

  /** Purchases of the tenant (filtered by listing and/or user), newest first, with the requirement data given (decrypted) for fulfilment. */
  async adminPurchases(
    tenantId: string,
    filter: { listingId?: string; userId?: string },
    page: PageRequest,
  ): Promise<Page<AdminPurchaseDto>> {
    const [rows, total] = await this.purchases.adminPage(tenantId, filter, page);
    const names = await this.users.names(
      tenantId,
      rows.map((p) => p.userId),
    );
    const items = await Promise.all(
      rows.map(async (p) => ({
        ...toPurchaseDto(p, p.listing!.name),
        userId: p.userId,
        handle: names.get(p.userId)?.handle ?? null,
        displayName: names.get(p.userId)?.displayName ?? null,
        requirementData: p.requirementDataEncrypted
          ? (JSON.parse(await this.encryption.decrypt(p.requirementDataEncrypted, purchaseDataContext(p.id))) as {
              requirementId: string;
              data: Record<string, unknown>;
            }[])
          : [],
      })),
    );
    return toPage(items, total, page);
  }
}
