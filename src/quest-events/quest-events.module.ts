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
import { QuestEventAdmin } from './quest-event-admin.js';
import { QuestEventReads } from './quest-event-reads.js';
import { QuestEventResolver } from './quest-event-resolver.js';
import { QuestEventsCaches } from './quest-events.caches.js';
import { RewardsService } from './rewards.service.js';
import { EventParticipantsReadModel } from './event-participants.read-model.js';
import { EventReferencesReadModel } from './event-references.read-model.js';
import { QuestEventsRepository } from './quest-events.repository.js';
import { RewardsRepository } from './rewards.repository.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { UsersModule } from '../users/users.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const QUEST_EVENTS_ENTITIES = [QuestEvent, QuestEventReward, RewardAllocation, RewardClaim];

/** Quest events, their leaderboard, rewards, completion (tickets) and claims. */
@Module({
  imports: [
    TypeOrmModule.forFeature(QUEST_EVENTS_ENTITIES),
    CommunitiesModule,
    InventoryModule,
    ResourcesModule,
    NotificationsModule,
    UsersModule,
  ],
  controllers: [QuestEventsController, QuestEventsAdminController],
  providers: [
    QuestEventsService,
    QuestEventResolver,
    QuestEventsCaches,
    QuestEventReads,
    QuestEventAdmin,
    EventCompletionService,
    RewardsService,
    QuestEventsRepository,
    RewardsRepository,
    EventParticipantsReadModel,
    EventReferencesReadModel,
  ],
  exports: [QuestEventsService, EventCompletionService, QuestEventsRepository],
})
export class QuestEventsModule {}
