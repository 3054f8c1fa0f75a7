import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { PageQueryDto, Paginated } from '../../common/pagination/pagination.js';
import type { Notification } from '../entities/notification.entity.js';
import { NOTIFICATION_TYPES, type NotificationType } from '../notification-types.js';

export class ListNotificationsQueryDto extends PageQueryDto {
  /**
   * The community (id or slug). The list holds that community's notifications and the
   * account-wide ones (no community, e.g. a sign-up referral).
   */
  @ApiProperty({ example: 'space-pirates', maxLength: 64 })
  @IsString()
  @Length(1, 64)
  containerId: string;
}

export class NotificationDto {
  @ApiProperty({ format: 'uuid', example: '0d3c1e8a-7c43-4a8e-9a36-2f4f7d6f2b10' })
  id: string;

  @ApiProperty({ enum: NOTIFICATION_TYPES, enumName: 'NotificationType', example: 'referral_joined' })
  type: NotificationType;

  @ApiProperty({ example: 'grace_h joined with your referral', maxLength: 200 })
  title: string;

  /** Details of the subject (ids to link to); the shape depends on `type`. */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { referredUserId: '3b241101-e2bb-4255-8caf-4136c566a962', referredHandle: 'grace_h', communityId: null },
  })
  data: Record<string, unknown>;

  /** The community it is about; null for account-wide notifications. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  communityId: string | null;

  @ApiProperty({ example: false })
  read: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  readAt: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-05-01T12:00:00.000Z' })
  createdAt: string;
}

/** The columns a notification is shown from: the list routes' rows, the live stream's reads. */
export type NotificationFields = Pick<Notification, 'id' | 'type' | 'title' | 'data' | 'communityId' | 'readAt' | 'createdAt'>;

/** A notification as the list routes and the live stream send it. */
export function toNotificationDto(n: NotificationFields): NotificationDto {
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

/** A page of notifications, newest first, with the number of unread ones in the same list. */
export class NotificationPageDto extends Paginated(NotificationDto) {
  /** Unread notifications over all pages of this list (this community plus account-wide ones). */
  @ApiProperty({ example: 3 })
  unreadCount: number;
}
