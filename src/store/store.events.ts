import type { ListingKind } from './entities/store-listing.entity.js';

/** What the store module publishes (see DomainEvents). */
export interface StorePurchaseCompleted {
  tenantId: string;
  purchaseId: string;
  listingId: string;
  communityId: string;
  userId: string;
  kind: ListingKind;
  itemId: string | null;
  prizeId: string | null;
  resourceTypeId: string | null;
  quantity: number;
  price: { resourceTypeId: string; amount: number }[];
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A purchase was made (in its transaction; never for a replay). */
    'store.purchase_completed': StorePurchaseCompleted;
  }
}
