import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { pageRequest, toPage, type Page } from '../common/pagination/pagination.js';
import { AppConfig } from '../config/app-config.js';
import type {
  CreateSubscriptionDto,
  DeliveryDto,
  DeliveryQueryDto,
  RedeliverWindowDto,
  SubscriptionDto,
  SubscriptionWithSecretDto,
  UpdateSubscriptionDto,
} from './dto/webhooks.dto.js';
import type { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { EVENT_CATALOG, isPublicEventType, PUBLIC_EVENT_TYPES } from './event-catalog.js';
import { IntegrationErrors } from './integrations.errors.js';
import { resolveAllowed, UrlRefused } from './url-guard.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { newWebhookSecret } from './webhook-signature.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { idOf } from '../common/validation/uuid.js';

const MAX_SUBSCRIPTIONS = 50;

const toDto = (s: WebhookSubscription): SubscriptionDto => ({
  id: s.id,
  url: s.url,
  eventTypes: s.eventTypes,
  active: s.active,
  description: s.description,
  previousSecretExpiresAt: s.previousSecretExpiresAt,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/** The management API of webhooks: subscriptions, their secrets, deliveries and redeliveries. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  eventTypes() {
    return { items: PUBLIC_EVENT_TYPES.map((type) => ({ type, ...EVENT_CATALOG[type] })) };
  }

  async create(tenantId: string, dto: CreateSubscriptionDto): Promise<SubscriptionWithSecretDto> {
    const url = await this.checkUrl(dto.url);
    const eventTypes = this.checkTypes(dto.eventTypes);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const secretEncrypted = await this.secrets.encrypt(id, secret);
    const saved = await this.dataSource.transaction(async (em) => {
      // Count and insert under the tenant's lock: creations at the same time cannot pass the cap together.
      await this.repo.lockTenantSubscriptions(tenantId, em);
      if ((await this.repo.countSubscriptions(tenantId, em)) >= MAX_SUBSCRIPTIONS)
        throw new DomainError(IntegrationErrors.too_many_subscriptions, `A tenant has at most ${MAX_SUBSCRIPTIONS} webhook subscriptions`);
      return this.repo.insertSubscription(
        tenantId,
        { id, url, eventTypes, active: dto.active ?? true, description: dto.description ?? null, secretEncrypted, now: this.clock.now() },
        em,
      );
    });
    return { ...toDto(saved), secret };
  }

  async list(tenantId: string): Promise<{ items: SubscriptionDto[] }> {
    return { items: (await this.repo.listSubscriptions(tenantId)).map(toDto) };
  }

  async get(tenantId: string, id: string): Promise<SubscriptionDto> {
    return toDto(await this.find(tenantId, id));
  }

  async update(tenantId: string, id: string, dto: UpdateSubscriptionDto): Promise<SubscriptionDto> {
    const s = await this.find(tenantId, id);
    const set: Parameters<WebhooksRepository['updateSubscription']>[2] = { updatedAt: this.clock.now() };
    if (dto.url !== undefined) set.url = await this.checkUrl(dto.url);
    if (dto.eventTypes !== undefined) set.eventTypes = this.checkTypes(dto.eventTypes);
    if (dto.active !== undefined) set.active = dto.active;
    if (dto.description !== undefined) set.description = dto.description;
    await this.dataSource.transaction(async (em) => {
      await this.repo.updateSubscription(tenantId, s.id, set, em);
      // After the update, under its row lock; also when `active` does not change, which pauses a
      // delivery created while the subscription was being deactivated.
      if (dto.active !== undefined) await this.repo.pauseDeliveries(tenantId, s.id, !dto.active, em);
    });
    return this.get(tenantId, s.id);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const key = idOf(id);
    if (!key || !(await this.repo.deleteSubscription(tenantId, key))) throw this.notFound(id);
  }

  /**
   * A new secret, shown once; the current one becomes the previous one and still signs for
   * `overlapSeconds`. Only if the secret is still the one read: of two rotations at once one is
   * applied and the other refused (409), so a secret answered is the one in effect.
   */
  async rotateSecret(tenantId: string, id: string, overlapSeconds = 86400): Promise<SubscriptionWithSecretDto> {
    const current = await this.find(tenantId, id);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const set = {
      secretEncrypted: await this.secrets.encrypt(current.id, secret),
      previousSecretEncrypted: overlapSeconds > 0 ? current.secretEncrypted : null,
      previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
      updatedAt: now,
    };
    const rotated = await this.dataSource.transaction(async (em) => {
      if (!(await this.repo.replaceSecret(tenantId, current.id, current.secretEncrypted, set, em))) return null;
      // Read under the update's row lock: this rotation's row, whatever comes after.
      return this.repo.findSubscription(tenantId, current.id, em);
    });
    if (!rotated) {
      if (!(await this.repo.findSubscription(tenantId, current.id))) throw this.notFound(id);
      throw new DomainError(
        IntegrationErrors.secret_rotated_concurrently,
        'Another rotation of this secret was applied meanwhile; this one changed nothing',
      );
    }
    return { ...toDto(rotated), secret };
  }

  async deliveries(tenantId: string, q: DeliveryQueryDto): Promise<Page<DeliveryDto>> {
    const page = pageRequest(q);
    const [rows, total] = await this.repo.deliveryPage(
      tenantId,
      { subscriptionId: q.subscriptionId?.toLowerCase(), status: q.status, eventId: q.eventId?.toLowerCase(), from: q.from, to: q.to },
      page,
    );
    const attempts = await this.repo.attemptsOf(rows.map((r) => r.id));
    const items = rows.map((d) => ({
      id: d.id,
      subscriptionId: d.subscriptionId,
      eventId: d.eventId,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      createdAt: d.createdAt,
      deliveredAt: d.deliveredAt,
      history: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({ attemptedAt: a.attemptedAt, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error })),
    }));
    return toPage(items, total, page);
  }

  async redeliver(tenantId: string, deliveryId: string): Promise<{ requeued: number }> {
    const key = idOf(deliveryId);
    const n = key ? await this.repo.requeue(tenantId, { deliveryId: key }, this.clock.now()) : 0;
    if (n === 0)
      throw new DomainError(
        IntegrationErrors.delivery_not_found,
        `No webhook delivery ${deliveryId.slice(0, 64)} (or an attempt is in flight)`,
      );
    return { requeued: n };
  }

  async redeliverFailed(tenantId: string, subscriptionId: string, dto: RedeliverWindowDto): Promise<{ requeued: number }> {
    const s = await this.find(tenantId, subscriptionId);
    return { requeued: await this.repo.requeue(tenantId, { subscriptionId: s.id, from: dto.from, to: dto.to }, this.clock.now()) };
  }

  private async find(tenantId: string, id: string): Promise<WebhookSubscription> {
    const key = idOf(id);
    const s = key ? await this.repo.findSubscription(tenantId, key) : null;
    if (!s) throw this.notFound(id);
    return s;
  }

  private notFound(id: string) {
    return new DomainError(IntegrationErrors.subscription_not_found, `No webhook subscription ${id.slice(0, 64)}`);
  }

  private checkTypes(types: string[]): string[] {
    const unknown = types.filter((t) => t !== '*' && !isPublicEventType(t));
    if (unknown.length)
      throw new DomainError(IntegrationErrors.unknown_event_type, `Unknown event type(s): ${unknown.join(', ').slice(0, 300)}`);
    return [...new Set(types)].sort();
  }

  /** An absolute http(s) URL without credentials whose host resolves to public addresses only (unless allowed). */
  private async checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DomainError(IntegrationErrors.webhook_url_refused, 'Not an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new DomainError(IntegrationErrors.webhook_url_refused, 'Only http and https URLs');
    if (url.username || url.password) throw new DomainError(IntegrationErrors.webhook_url_refused, 'No credentials in the URL');
    try {
      await resolveAllowed(url.hostname, this.config.WEBHOOK_ALLOW_PRIVATE_URLS);
    } catch (e) {
      if (e instanceof UrlRefused) throw new DomainError(IntegrationErrors.webhook_url_refused, e.message);
      throw e;
    }
    // Normalising (punycode, percent-encoding) can lengthen what passed the 2,048-character check.
    const normalised = url.toString();
    if (normalised.length > 2048)
      throw new DomainError(IntegrationErrors.webhook_url_refused, 'The URL is longer than 2,048 characters once normalised');
    return normalised;
  }
}
