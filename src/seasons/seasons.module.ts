import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { PrizesModule } from '../prizes/prizes.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { Season, SeasonPayout, SeasonSchedule } from './entities/season.entity.js';
import { SeasonCloser } from './season-closer.js';
import { SeasonsAdminController } from './seasons.admin.controller.js';
import { SeasonsController } from './seasons.controller.js';
import { SeasonsRepository } from './seasons.repository.js';
import { SeasonsService } from './seasons.service.js';
import { SeasonsCaches } from './seasons.caches.js';
import { SeasonBoardRefs } from './season-board-refs.js';
import { SeasonDefinitions } from './season-definitions.js';
import { SeasonFreezer } from './season-freezer.js';
import { SeasonOpener } from './season-opener.js';
import { SeasonPayer } from './season-payer.js';
import { SeasonReads } from './season-reads.js';
import { SeasonRewardChecks } from './season-reward-checks.js';
import { SeasonRewardGrants } from './season-reward-grants.js';
import { SeasonViews } from './season-views.js';
import { ImportFinishedSeason } from './import-finished-season.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const SEASONS_ENTITIES = [SeasonSchedule, Season, SeasonPayout];

/**
 * Seasons of resource leaderboards: definitions and schedules, and the worker that opens and closes
 * them (frozen standings, rank rewards). The boards themselves are the resources module's.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(SEASONS_ENTITIES),
    ResourcesModule,
    CommunitiesModule,
    InventoryModule,
    PrizesModule,
    NotificationsModule,
  ],
  controllers: [SeasonsController, SeasonsAdminController],
  providers: [
    SeasonsService,
    SeasonsCaches,
    SeasonBoardRefs,
    SeasonDefinitions,
    SeasonReads,
    SeasonViews,
    SeasonRewardChecks,
    SeasonOpener,
    ImportFinishedSeason,
    SeasonsRepository,
    SeasonCloser,
    SeasonFreezer,
    SeasonPayer,
    SeasonRewardGrants,
  ],
  exports: [SeasonsService],
})
export class SeasonsModule {}
