import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Notification } from './entities/notification.entity.js';
import { StreamTicket } from './entities/stream-ticket.entity.js';
import { NotificationsInboxService } from './notifications-inbox.service.js';
import { NotificationsAdminController } from './notifications.admin.controller.js';
import { NotificationsController } from './notifications.controller.js';
import { UsersModule } from '../users/users.module.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { AccessModule } from '../access/access.module.js';
import { NotificationsStreamController } from './notifications-stream.controller.js';
import { NotificationBus } from './stream/notification-bus.js';
import { NotificationStreamRepository } from './stream/notification-stream.repository.js';
import { NotificationStreamsService } from './stream/notification-streams.service.js';
import { StreamTicketsService } from './stream/stream-tickets.service.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const NOTIFICATIONS_ENTITIES = [Notification, StreamTicket];

/** Global: any module injects `NotificationsService` and calls `notify(em, ...)` in its transaction. */
@Module({
  imports: [TypeOrmModule.forFeature(NOTIFICATIONS_ENTITIES), CommunitiesModule, AccessModule, UsersModule],
  controllers: [NotificationsController, NotificationsStreamController, NotificationsAdminController],
  providers: [
    NotificationsService,
    NotificationsInboxService,
    NotificationsRepository,
    // The live stream (extension): src/notifications/stream.
    NotificationStreamRepository,
    NotificationBus,
    NotificationStreamsService,
    StreamTicketsService,
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}
