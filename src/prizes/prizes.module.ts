import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequirementsModule } from '../requirements/requirements.module.js';
import { PrizeAward } from './entities/prize-award.entity.js';
import { Prize } from './entities/prize.entity.js';
import { PrizesAdminController } from './prizes.admin.controller.js';
import { PrizesController } from './prizes.controller.js';
import { UsersModule } from '../users/users.module.js';
import { PrizesRepository } from './prizes.repository.js';
import { PrizeViewsReadModel } from './prize-views.read-model.js';
import { PrizesService } from './prizes.service.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const PRIZES_ENTITIES = [Prize, PrizeAward];

/**
 * Prizes and achievements under /v1/inventory/prizes, managed under /v1/admin/prizes. Exports
 * `PrizesService.award(em, ...)` for the store and event rewards.
 */
@Module({
  imports: [TypeOrmModule.forFeature(PRIZES_ENTITIES), RequirementsModule, CommunitiesModule, NotificationsModule, UsersModule],
  controllers: [PrizesController, PrizesAdminController],
  providers: [PrizesService, PrizesRepository, PrizeViewsReadModel],
  exports: [PrizesService],
})
export class PrizesModule {}
