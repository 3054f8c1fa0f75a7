import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainEvents } from '../common/events/domain-events.js';
import '../users/users.events.js';
import './notifications.events.js';
import type { Notification } from './entities/notification.entity.js';
import { NotificationsRepository, type PreparedNotification } from './notifications.repository.js';
import { NOTIFICATION_DATA_MAX_BYTES, NOTIFICATION_TITLE_MAX, NOTIFICATION_TYPES, NotificationType } from './notification-types.js';

/** Notifications per statement of `notifyMany`. */
export const NOTIFY_BATCH = 1000;

export interface NotifyInput {
  tenantId: string;
  userId: string;
  /** The community the change happened in; omit for account-wide notifications. */
  communityId?: string | null;
  type: NotificationType;
  title: string;
  /** A small JSON object (at most 4 KB) the client can use to link to the subject. */
  data?: Record<string, unknown>;
}

/**
 * The one way other modules tell a user something happened. `notify` writes with the CALLER's
 * entity manager, i.e. inside the caller's transaction: the notification exists if and only if
 * the change it reports commits. Call it after the change succeeded, inside the same
 * `dataSource.transaction(...)`. Bad input (unknown type, oversized data) is a programming error
 * and throws a plain Error, which rolls the caller's transaction back.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly clock: Clock,
    private readonly repo: NotificationsRepository,
    private readonly events: DomainEvents,
  ) {
    events.inTransaction('referral.recorded', async (r, em) => {
      await this.notify(em, {
        tenantId: r.tenantId,
        userId: r.referrerId,
        communityId: r.communityId,
        type: NotificationType.ReferralJoined,
        title: `${r.referredHandle ?? 'A new user'} joined with your referral`,
        data: { referredUserId: r.referredId, referredHandle: r.referredHandle, communityId: r.communityId },
      });
    });
  }

  async notify(em: EntityManager, input: NotifyInput): Promise<Notification> {
    const notification = await this.repo.insert({ ...this.prepare(input), readAt: null }, em);
    await this.written(em, notification.tenantId, notification.userId, notification.id);
    return notification;
  }

  /**
   * `notify` for many notifications at once (a batch of season winners, an event's every
   * participant), in the caller's transaction: one statement per `NOTIFY_BATCH` of them, so an
   * event of a million participants costs a thousand round trips, not a million, and no statement
   * carries more than a batch's JSON.
   */
  async notifyMany(em: EntityManager, inputs: NotifyInput[]): Promise<void> {
    for (let i = 0; i < inputs.length; i += NOTIFY_BATCH) {
      const rows = await this.repo.insertMany(
        inputs.slice(i, i + NOTIFY_BATCH).map((n) => this.prepare(n)),
        em,
      );
      for (const r of rows) await this.written(em, r.tenant_id, r.user_id, r.id);
    }
  }

  /**
   * Notifications of `userId` were written in the transaction of `em` (by `notify`, or by a
   * statement of another module that wrote `prepare`d rows itself: `notificationId` null). After
   * the commit the user's live streams on every instance read them (src/notifications/stream).
   */
  async written(em: EntityManager, tenantId: string, userId: string, notificationId: string | null): Promise<void> {
    await this.events.publish(em, 'notification.created', { tenantId, userId, notificationId });
  }

  /**
   * The row `notify` would write, checked and shaped the same way, for a caller that writes it in
   * its own statement (the store's one-statement purchase), inside its own transaction.
   */
  prepare(input: NotifyInput): PreparedNotification {
    if (!NOTIFICATION_TYPES.includes(input.type)) throw new Error(`unknown notification type "${input.type}"`);
    const data = input.data ?? {};
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('notification data must be a JSON object');
    const json = JSON.stringify(data);
    if (Buffer.byteLength(json) > NOTIFICATION_DATA_MAX_BYTES)
      throw new Error(`notification data exceeds ${NOTIFICATION_DATA_MAX_BYTES} bytes`);
    const title = input.title.length > NOTIFICATION_TITLE_MAX ? `${input.title.slice(0, NOTIFICATION_TITLE_MAX - 1)}…` : input.title;
    return {
      tenantId: input.tenantId,
      userId: input.userId,
      communityId: input.communityId ?? null,
      type: input.type,
      title,
      data: JSON.parse(json) as Record<string, unknown>,
      createdAt: this.clock.now(),
    };
  }
}
