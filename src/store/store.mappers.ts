import type { ListingDto } from './dto/listing.dto.js';
import type { PurchaseDto } from './dto/purchase.dto.js';
import type { PriceComponent, StoreListing } from './entities/store-listing.entity.js';
import type { StorePurchase } from './entities/store-purchase.entity.js';

/** A stored price as the API shows it (amounts as numbers). */
export function toPrice(price: readonly PriceComponent[]): { resourceTypeId: string; amount: number }[] {
  return price.map((p) => ({ resourceTypeId: p.resourceTypeId, amount: Number(p.amount) }));
}

export function toListingDto(l: StoreListing): ListingDto {
  return {
    id: l.id,
    communityId: l.communityId,
    name: l.name,
    description: l.description,
    imageUrl: l.imageUrl,
    kind: l.kind,
    itemId: l.itemId,
    prizeId: l.prizeId,
    resourceTypeId: l.resourceTypeId,
    quantity: l.quantity,
    price: toPrice(l.price),
    totalSupply: l.totalSupply,
    remainingSupply: l.totalSupply === null ? null : l.totalSupply - l.soldTotal,
    sold: l.soldTotal,
    perUserLimit: l.perUserLimit,
    startsAt: l.startsAt,
    endsAt: l.endsAt,
    requirementIds: l.requirementIds,
    active: l.active,
    position: l.position,
    createdAt: l.createdAt,
  };
}

export function toPurchaseDto(
  p: Pick<
    StorePurchase,
    'id' | 'listingId' | 'communityId' | 'nonce' | 'kind' | 'itemId' | 'prizeId' | 'resourceTypeId' | 'quantity' | 'price' | 'createdAt'
  >,
  listingName: string,
): PurchaseDto {
  return {
    id: p.id,
    listingId: p.listingId,
    listingName,
    communityId: p.communityId,
    nonce: p.nonce,
    kind: p.kind,
    itemId: p.itemId,
    prizeId: p.prizeId,
    resourceTypeId: p.resourceTypeId,
    quantity: p.quantity,
    price: toPrice(p.price),
    createdAt: p.createdAt,
  };
}

/** Why a listing cannot be bought because of its window, or null. */
export function windowProblem(l: Pick<StoreListing, 'startsAt' | 'endsAt'>, now: Date): 'not_started' | 'ended' | null {
  if (l.startsAt && now < l.startsAt) return 'not_started';
  if (l.endsAt && now >= l.endsAt) return 'ended';
  return null;
}

/** The encryption context of a purchase's requirement data (sealed at the purchase, opened for fulfilment). */
export const purchaseDataContext = (purchaseId: string) => `store-purchase:${purchaseId}:requirement-data`;
