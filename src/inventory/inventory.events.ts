/** What the inventory module publishes (see DomainEvents). */
export interface ItemSupplyTaken {
  itemId: string;
}

export interface ItemGranted {
  tenantId: string;
  grantId: string;
  itemId: string;
  communityId: string;
  userId: string;
  quantity: number;
  reason: string;
  reference: string | null;
}

export interface AvatarMinted {
  tenantId: string;
  mintId: string;
  communityId: string;
  userId: string;
  blockchain: string;
  tokenId: string;
  txHash: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** Units of an item were granted (its shards moved): its `granted` summary is folded after the commit. */
    'inventory.supply_taken': ItemSupplyTaken;
    /** Units of an item were granted to a user (never for a replayed key). */
    'inventory.item_granted': ItemGranted;
    /** An avatar mint's transaction was confirmed (once per mint job). */
    'avatar.minted': AvatarMinted;
  }
}
