import { Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { ListNotificationsQueryDto, NotificationPageDto } from './dto/notification.dto.js';
import { NotificationsInboxService } from './notifications-inbox.service.js';

@ApiTags('Notifications')
@Controller('user')
export class NotificationsController {
  constructor(private readonly inbox: NotificationsInboxService) {}

  @Get('notifications')
  @Authenticated()
  @ApiOperation({
    summary: "The current user's notifications in a community",
    description:
      'Newest first. Holds the notifications about the community `containerId` (id or slug) and the account-wide ones (no community). `unreadCount` counts the unread ones of the same list.',
  })
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS, CommunityErrors.community_not_found)
  listNotifications(@CurrentUser() user: AuthUser, @Query() q: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    return this.inbox.list(user.tenantId, user.id, q);
  }

  @Post('notifications/read')
  @Authenticated()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({
    summary: "Mark all of the current user's notifications read",
    description: 'Every community and the account-wide ones. Idempotent.',
  })
  @ApiCreatedResponse({ description: 'Marked read; no content.' })
  @ApiErrors(...SESSION_ERRORS)
  async markNotificationsRead(@CurrentUser() user: AuthUser): Promise<void> {
    await this.inbox.markAllRead(user.tenantId, user.id);
  }
}
