import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxEvent } from './entities/outbox-event.entity.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { IntegrationsAdminController } from './integrations.admin.controller.js';
import { NatsSink } from './nats-sink.js';
import { OutboxRepository } from './outbox.repository.js';
import { OutboxRetention } from './outbox-retention.js';
import { OutboxWriter } from './outbox.writer.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookWorker } from './webhook-worker.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** The tables this module owns. */
export const INTEGRATIONS_ENTITIES = [OutboxEvent, WebhookSubscription, WebhookDelivery, WebhookAttempt];

/**
 * Domain events for the outside world: the outbox (every public domain event, written in its
 * transaction), webhooks (subscriptions, signed deliveries with retries, leased workers) and the
 * optional NATS JetStream sink, and the retention pass that deletes what is delivered and old. It imports no domain module: it hears them through DomainEvents.
 * `OutboxWriter` (records, listeners) and `OutboxRepository` (`insertPiece`) are exported for hot
 * paths that fold the outbox write into a statement of their own.
 */
@Module({
  imports: [TypeOrmModule.forFeature(INTEGRATIONS_ENTITIES)],
  controllers: [IntegrationsAdminController],
  providers: [
    OutboxRepository,
    OutboxWriter,
    WebhooksRepository,
    WebhooksService,
    WebhookSecrets,
    WebhookSender,
    WebhookWorker,
    NatsSink,
    OutboxRetention,
  ],
  exports: [OutboxWriter, OutboxRepository],
})
export class IntegrationsModule {}
