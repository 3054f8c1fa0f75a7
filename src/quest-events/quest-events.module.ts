import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestEventReward } from './entities/quest-event-reward.entity.js';
import { QuestEvent } from './entities/quest-event.entity.js';
import { RewardAllocation } from './entities/reward-allocation.entity.js';
import { RewardClaim } from './entities/reward-claim.entity.js';
import { EventCompletionService } from './event-completion.service.js';
import { QuestEventsAdminController } from './quest-events.admin.controller.js';
import { QuestEventsController } from './quest-events.controller.js';
import { QuestEventsService } from './quest-events.service.js';
import { RewardsService } from './rewards.service.js';

/** Quest events, their leaderboard, rewards, completion (tickets) and claims. */
@Module({
  imports: [TypeOrmModule.forFeature([QuestEvent, QuestEventReward, RewardAllocation, RewardClaim])],
  controllers: [QuestEventsController, QuestEventsAdminController],
  providers: [QuestEventsService, EventCompletionService, RewardsService],
  exports: [QuestEventsService, EventCompletionService],
})
export class QuestEventsModule {}
