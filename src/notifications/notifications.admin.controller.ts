import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { PageQueryDto, pageRequest } from '../common/pagination/pagination.js';
import { AdminUserIdParamDto } from '../users/dto/admin-user.dto.js';
import { UserErrors } from '../users/users.errors.js';
import { NotificationPageDto } from './dto/notification.dto.js';
import { NotificationsInboxService } from './notifications-inbox.service.js';

@ApiTags('Management')
@Controller('admin/users')
export class NotificationsAdminController {
  constructor(private readonly inbox: NotificationsInboxService) {}

  @Get(':userId/notifications')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A player's notifications (extension)",
    description:
      'Every notification of the player, of every community and account-wide, newest first, read or not (reading them here marks nothing read). `unreadCount` counts the unread ones. Paginated.',
  })
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS, UserErrors.user_not_found)
  listAdminUserNotifications(
    @TenantId() tenantId: string,
    @Param() p: AdminUserIdParamDto,
    @Query() q: PageQueryDto,
  ): Promise<NotificationPageDto> {
    return this.inbox.listOfUser(tenantId, p.userId, pageRequest(q));
  }
}
