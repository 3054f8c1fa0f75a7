/** What the prizes module publishes (see DomainEvents). */
export interface PrizeAwarded {
  tenantId: string;
  awardId: string;
  prizeId: string;
  userId: string;
  quantity: number;
  source: string;
  reason: string;
  reference: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A prize was awarded (in the awarding transaction; never for a replayed key). */
    'prize.awarded': PrizeAwarded;
  }
}
