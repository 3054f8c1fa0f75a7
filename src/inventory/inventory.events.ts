/** What the inventory module publishes (see DomainEvents). */
export interface ItemSupplyTaken {
  itemId: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** Units of an item were granted (its shards moved): its `granted` summary is folded after the commit. */
    'inventory.supply_taken': ItemSupplyTaken;
  }
}
