import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { type PageRequest, pageRequest, toPage } from '../common/pagination/pagination.js';
import { UsersService } from '../users/users.service.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { type ListNotificationsQueryDto, type NotificationPageDto, toNotificationDto } from './dto/notification.dto.js';
import { NotificationsRepository } from './notifications.repository.js';

/** The user's side: listing notifications and marking them read. */
@Injectable()
export class NotificationsInboxService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly communities: CommunitiesService,
    private readonly clock: Clock,
    private readonly users: UsersService,
  ) {}

  async list(tenantId: string, userId: string, q: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    const community = await this.communities.resolve(tenantId, q.containerId);
    const req = pageRequest(q);
    const { rows, total, unread: unreadCount } = await this.repo.page(tenantId, userId, community.id, req);
    return { ...toPage(rows.map(toNotificationDto), total, req), unreadCount };
  }

  /** Every notification of a player (all communities), newest first (management). 404 for an unknown user. */
  async listOfUser(tenantId: string, userId: string, req: PageRequest): Promise<NotificationPageDto> {
    await this.users.getById(tenantId, userId);
    const { rows, total, unread: unreadCount } = await this.repo.page(tenantId, userId, null, req);
    return { ...toPage(rows.map(toNotificationDto), total, req), unreadCount };
  }

  /** Marks every unread notification of the user (all communities) read. */
  async markAllRead(tenantId: string, userId: string): Promise<void> {
    await this.repo.markAllRead(tenantId, userId, this.clock.now());
  }
}
