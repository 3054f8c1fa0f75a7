/** What the quest-events module publishes (see DomainEvents). */
export interface QuestEventCompleting {
  tenantId: string;
  eventId: string;
  scoreResourceTypeId: string | null;
  now: Date;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /**
     * The event is being completed, in the completing transaction, before tickets are allocated:
     * the participation module brings the REGISTERED participants' final scores up to date.
     */
    'quest-event.completing': QuestEventCompleting;
  }
}
