import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestEventsModule } from '../quest-events/quest-events.module.js';
import { QuestCompletion } from './entities/quest-completion.entity.js';
import { Quest } from './entities/quest.entity.js';
import { QuestsAdminController } from './quests.admin.controller.js';
import { QuestsController } from './quests.controller.js';
import { QuestsService } from './quests.service.js';

/** Quests of communities and quest events, their tags, and completions (rewards through the ledger). */
@Module({
  imports: [TypeOrmModule.forFeature([Quest, QuestCompletion]), QuestEventsModule],
  controllers: [QuestsController, QuestsAdminController],
  providers: [QuestsService],
})
export class QuestsModule {}
