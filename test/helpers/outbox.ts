import type { DataSource } from 'typeorm';

/**
 * Makes the tenant's events be written to the outbox, for tests that read them there: an active
 * subscription to every type (`*`), as an integration would hold. Events no sink takes are not
 * written (OutboxRepository.insertPiece). Its URL is a documentation address the delivery guard
 * refuses, so its deliveries fail at once, offline, and wait for a retry.
 */
export async function subscribeToEveryEvent(dataSource: DataSource, tenantId: string): Promise<void> {
  await dataSource.query(
    `INSERT INTO webhook_subscriptions (tenant_id, url, event_types, active, secret_encrypted, created_at, updated_at)
     VALUES ($1, 'http://192.0.2.1/events', '{*}', true, 'not a secret', now(), now())`,
    [tenantId],
  );
}
