import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestEventsModule } from '../quest-events/quest-events.module.js';
import { QuestCompletion } from './entities/quest-completion.entity.js';
import { Quest } from './entities/quest.entity.js';
import { QuestsAdminController } from './quests.admin.controller.js';
import { QuestsController } from './quests.controller.js';
import { QuestsService } from './quests.service.js';
import { QuestEventQuestsController } from './quest-event-quests.controller.js';
import { QuestReferencesReadModel } from './quest-references.read-model.js';
import { QuestListReadModel } from './quest-list.read-model.js';
import { QuestsRepository } from './quests.repository.js';
import { ParticipationModule } from '../participation/participation.module.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { ResourcesModule } from '../resources/resources.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const QUESTS_ENTITIES = [Quest, QuestCompletion];

/** Quests of communities and quest events, their tags, and completions (rewards through the ledger). */
@Module({
  imports: [
    TypeOrmModule.forFeature(QUESTS_ENTITIES),
    QuestEventsModule,
    ParticipationModule,
    CommunitiesModule,
    InventoryModule,
    ResourcesModule,
  ],
  controllers: [QuestsController, QuestsAdminController, QuestEventQuestsController],
  providers: [QuestsService, QuestsRepository, QuestReferencesReadModel, QuestListReadModel],
})
export class QuestsModule {}
