/** What the notifications module publishes (see DomainEvents). */
export interface NotificationCreated {
  tenantId: string;
  userId: string;
  /** null: written by another module's own statement from `prepare`d rows (the one-statement purchase). */
  notificationId: string | null;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /**
     * A notification was written in the publisher's transaction. After the commit the live stream
     * wakes the user's open streams on every instance (src/notifications/stream).
     */
    'notification.created': NotificationCreated;
  }
}
