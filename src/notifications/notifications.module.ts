import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Notification } from './entities/notification.entity.js';
import { NotificationsInboxService } from './notifications-inbox.service.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';
import { CommunitiesModule } from '../communities/communities.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const NOTIFICATIONS_ENTITIES = [Notification];

/** Global: any module injects `NotificationsService` and calls `notify(em, ...)` in its transaction. */
@Module({
  imports: [TypeOrmModule.forFeature(NOTIFICATIONS_ENTITIES), CommunitiesModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsInboxService, NotificationsRepository],
  exports: [NotificationsService],
})
export class NotificationsModule {}
