import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, type Page } from '../common/pagination/pagination.js';
import {
  CreateSubscriptionDto,
  DeliveryDto,
  DeliveryQueryDto,
  EventTypeListDto,
  RedeliveredDto,
  RedeliverWindowDto,
  RotateSecretDto,
  SubscriptionDto,
  SubscriptionListDto,
  SubscriptionWithSecretDto,
  UpdateSubscriptionDto,
} from './dto/webhooks.dto.js';
import { IntegrationErrors } from './integrations.errors.js';
import { WebhooksService } from './webhooks.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];
const DELIVERY_TEXT =
  'Delivery is at least once: POST of the event envelope as JSON with `X-CGS-Event-Id` (the idempotency key: dedupe by it), `X-CGS-Timestamp` and `X-CGS-Signature` (HMAC-SHA256 of `<timestamp>.<body>`; docs/integrations.md), a 5 s timeout, retries with exponential backoff and jitter for 24 hours, then dead-lettered. Order is not promised, not even per subscription: order by `occurredAt` when it matters.';

@ApiTags('Management')
@Controller('admin/webhooks')
export class IntegrationsAdminController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('event-types')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'List the event types (extension)',
    description: 'Every event type with its payload version, description and JSON Schema (also `WebhookEvent_<type>` in components).',
  })
  @ApiOkResponse({ type: EventTypeListDto })
  @ApiErrors(...API_KEY_ERRORS)
  listWebhookEventTypes(): EventTypeListDto {
    return this.webhooks.eventTypes();
  }

  @Post('subscriptions')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a webhook subscription (extension)',
    description: `The answer carries the signing \`secret\`, shown only once. ${DELIVERY_TEXT}`,
  })
  @ApiCreatedResponse({ type: SubscriptionWithSecretDto })
  @ApiErrors(
    ...adminErrors,
    IntegrationErrors.webhook_url_refused,
    IntegrationErrors.unknown_event_type,
    IntegrationErrors.too_many_subscriptions,
  )
  createWebhookSubscription(@TenantId() tenantId: string, @Body() dto: CreateSubscriptionDto): Promise<SubscriptionWithSecretDto> {
    return this.webhooks.create(tenantId, dto);
  }

  @Get('subscriptions')
  @ApiKeyAuth()
  @ApiOperation({ summary: "List the tenant's webhook subscriptions (extension)", description: 'Oldest first; secrets are never listed.' })
  @ApiOkResponse({ type: SubscriptionListDto })
  @ApiErrors(...API_KEY_ERRORS)
  listWebhookSubscriptions(@TenantId() tenantId: string): Promise<SubscriptionListDto> {
    return this.webhooks.list(tenantId);
  }

  @Get('subscriptions/:subscriptionId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Get a webhook subscription (extension)' })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(...adminErrors, IntegrationErrors.subscription_not_found)
  getWebhookSubscription(@TenantId() tenantId: string, @Param('subscriptionId') id: string): Promise<SubscriptionDto> {
    return this.webhooks.get(tenantId, id);
  }

  @Patch('subscriptions/:subscriptionId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update a webhook subscription (extension)',
    description:
      'URL, event types, active, description. Events already queued keep going to the subscription as it is when they are sent. While inactive it gets no deliveries of new events; those already queued wait and are sent once it is active again.',
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(
    ...adminErrors,
    IntegrationErrors.subscription_not_found,
    IntegrationErrors.webhook_url_refused,
    IntegrationErrors.unknown_event_type,
  )
  updateWebhookSubscription(
    @TenantId() tenantId: string,
    @Param('subscriptionId') id: string,
    @Body() dto: UpdateSubscriptionDto,
  ): Promise<SubscriptionDto> {
    return this.webhooks.update(tenantId, id, dto);
  }

  @Delete('subscriptions/:subscriptionId')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a webhook subscription (extension)', description: 'With its deliveries and their attempts.' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(...adminErrors, IntegrationErrors.subscription_not_found)
  deleteWebhookSubscription(@TenantId() tenantId: string, @Param('subscriptionId') id: string): Promise<void> {
    return this.webhooks.remove(tenantId, id);
  }

  @Post('subscriptions/:subscriptionId/rotate-secret')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Rotate a webhook subscription's signing secret (extension)",
    description:
      'A new secret, shown only in this answer. For `overlapSeconds` (default one day) deliveries carry two signatures, one per secret, so the receiver can switch when it likes. Of two rotations at the same time one is applied and the other answered 409 `secret_rotated_concurrently`, so a secret answered here is the one in effect.',
  })
  @ApiOkResponse({ type: SubscriptionWithSecretDto })
  @ApiErrors(...adminErrors, IntegrationErrors.subscription_not_found, IntegrationErrors.secret_rotated_concurrently)
  rotateWebhookSecret(
    @TenantId() tenantId: string,
    @Param('subscriptionId') id: string,
    @Body() dto: RotateSecretDto,
  ): Promise<SubscriptionWithSecretDto> {
    return this.webhooks.rotateSecret(tenantId, id, dto.overlapSeconds ?? undefined); // null: the default, as absent
  }

  @Post('subscriptions/:subscriptionId/redeliver')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Redeliver the failed deliveries of a window (extension)',
    description:
      'Every delivery of the subscription created in [`from`, `to`) that is dead or waiting for a retry after a failure is queued again now, with a new retry schedule.',
  })
  @ApiOkResponse({ type: RedeliveredDto })
  @ApiErrors(...adminErrors, IntegrationErrors.subscription_not_found)
  redeliverFailedWebhooks(
    @TenantId() tenantId: string,
    @Param('subscriptionId') id: string,
    @Body() dto: RedeliverWindowDto,
  ): Promise<RedeliveredDto> {
    return this.webhooks.redeliverFailed(tenantId, id, dto);
  }

  @Get('deliveries')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'List webhook deliveries (extension)',
    description: `Newest first, each with its attempts (time, HTTP status, duration, error). ${DELIVERY_TEXT}`,
  })
  @ApiOkResponse({ type: Paginated(DeliveryDto) })
  @ApiErrors(...adminErrors)
  listWebhookDeliveries(@TenantId() tenantId: string, @Query() q: DeliveryQueryDto): Promise<Page<DeliveryDto>> {
    return this.webhooks.deliveries(tenantId, q);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @ApiKeyAuth()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Redeliver one delivery (extension)',
    description: 'Queues it again now (delivered or not), with a new retry schedule; its earlier attempts stay listed.',
  })
  @ApiOkResponse({ type: RedeliveredDto })
  @ApiErrors(...adminErrors, IntegrationErrors.delivery_not_found)
  redeliverWebhook(@TenantId() tenantId: string, @Param('deliveryId') id: string): Promise<RedeliveredDto> {
    return this.webhooks.redeliver(tenantId, id);
  }
}
