import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, IsNull, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { pageRequest, toPage } from '../common/pagination/pagination.js';
import { CommunitiesService } from '../communities/communities.service.js';
import type { ListNotificationsQueryDto, NotificationDto, NotificationPageDto } from './dto/notification.dto.js';
import { Notification } from './entities/notification.entity.js';
import type { NotificationType } from './notification-types.js';

/** The user's side: listing notifications and marking them read. */
@Injectable()
export class NotificationsInboxService {
  constructor(
    @InjectRepository(Notification) private readonly repo: Repository<Notification>,
    private readonly communities: CommunitiesService,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, userId: string, q: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    const community = await this.communities.resolve(tenantId, q.containerId);
    const req = pageRequest(q);
    const scoped = () =>
      this.repo
        .createQueryBuilder('n')
        .where('n.tenant_id = :tenantId AND n.user_id = :userId', { tenantId, userId })
        .andWhere(
          new Brackets((b) => b.where('n.community_id = :communityId', { communityId: community.id }).orWhere('n.community_id IS NULL')),
        );
    const [[rows, total], unreadCount] = await Promise.all([
      scoped().orderBy('n.created_at', 'DESC').addOrderBy('n.id', 'DESC').offset(req.offset).limit(req.limit).getManyAndCount(),
      scoped().andWhere('n.read_at IS NULL').getCount(),
    ]);
    return { ...toPage(rows.map(toDto), total, req), unreadCount };
  }

  /** Marks every unread notification of the user (all communities) read. */
  async markAllRead(tenantId: string, userId: string): Promise<void> {
    await this.repo.update({ tenantId, userId, readAt: IsNull() }, { readAt: this.clock.now() });
  }
}

function toDto(n: Notification): NotificationDto {
  return {
    id: n.id,
    type: n.type as NotificationType,
    title: n.title,
    data: n.data,
    communityId: n.communityId,
    read: n.readAt !== null,
    readAt: n.readAt?.toISOString() ?? null,
    createdAt: n.createdAt.toISOString(),
  };
}
