import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ThrottlingModule } from '../auth/throttling/throttling.module.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { ParticipationModule } from '../participation/participation.module.js';
import { QuestEventsModule } from '../quest-events/quest-events.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { SocialsModule } from '../socials/socials.module.js';
import { UsersModule } from '../users/users.module.js';
import { WalletsModule } from '../wallets/wallets.module.js';
import { ClaimQuest } from './claims/claim-quest.js';
import { CompleteQuest, CompletionNotices, EventQuestGate, QuestRewardsPayer } from './claims/complete-quest.js';
import { QuestAvailability } from './claims/quest-availability.js';
import { QuestContextLoader } from './claims/quest-context.js';
import { QuestHistory } from './claims/quest-history.js';
import { QuestProgressView } from './claims/quest-progress.view.js';
import { QuestStreaksRepository } from './claims/quest-streaks.repository.js';
import { TaskInputs } from './claims/task-inputs.js';
import { TaskProgressWriter } from './claims/task-progress-writer.js';
import { VisitLinks } from './claims/visit-links.js';
import { VisitTask } from './claims/visit-task.js';
import { GameEvent } from './entities/game-event.entity.js';
import { QuestCompletion } from './entities/quest-completion.entity.js';
import { QuestPlatformCredential } from './entities/quest-platform-credential.entity.js';
import { QuestStreak } from './entities/quest-streak.entity.js';
import { QuestTaskProgress } from './entities/quest-task-progress.entity.js';
import { QuestTask } from './entities/quest-task.entity.js';
import { Quest } from './entities/quest.entity.js';
import { GameEventsRepository } from './game-events/game-events.repository.js';
import { GameEventsService } from './game-events/game-events.service.js';
import { QuestPlatformsRepository } from './platforms/quest-platforms.repository.js';
import { QuestPlatformsService } from './platforms/quest-platforms.service.js';
import { QuestEventQuestsController } from './quest-event-quests.controller.js';
import { QuestListReadModel } from './quest-list.read-model.js';
import { QuestListsCache } from './quest-lists.cache.js';
import { QuestHistoryController, QuestPlayController } from './quest-play.controller.js';
import { QuestReferencesReadModel } from './quest-references.read-model.js';
import {
  GameEventsAdminController,
  QuestPlatformsAdminController,
  QuestSubmissionsAdminController,
  QuestTasksAdminController,
} from './quest-tasks.admin.controller.js';
import { QuestsAdminController } from './quests.admin.controller.js';
import { QuestsController } from './quests.controller.js';
import { QuestsRepository } from './quests.repository.js';
import { QuestsService } from './quests.service.js';
import { QuestSubmissionsReadModel } from './review/quest-submissions.read-model.js';
import { ReviewSubmission } from './review/review-submission.js';
import { SubmissionQueue } from './review/submission-queue.js';
import { QuestTasksRepository } from './tasks/quest-tasks.repository.js';
import { QuestTasksService } from './tasks/quest-tasks.service.js';
import { TaskVerifiers, VerificationLimits } from './tasks/task-verifiers.js';
import { GameEventVerifier, QuestRefVerifier, ReferralsVerifier, ResourceVerifier } from './tasks/verifiers/local.verifiers.js';
import { OnchainVerifier } from './tasks/verifiers/onchain.verifier.js';
import { PartnerVerifier } from './tasks/verifiers/partner.verifier.js';
import { SocialVerifier } from './tasks/verifiers/social.verifier.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const QUESTS_ENTITIES = [Quest, QuestCompletion, QuestTask, QuestTaskProgress, QuestStreak, GameEvent, QuestPlatformCredential];

/**
 * Quests of communities and quest events, their tags, and completing them: by the management API,
 * or by players, whose tasks the service verifies (src/quests/tasks/), with recurrence, streaks,
 * a review queue and game events. Rewards go through the ledger and the inventory.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(QUESTS_ENTITIES),
    QuestEventsModule,
    ParticipationModule,
    CommunitiesModule,
    InventoryModule,
    ResourcesModule,
    NotificationsModule,
    SocialsModule,
    WalletsModule,
    UsersModule,
    ThrottlingModule,
  ],
  controllers: [
    QuestsController,
    QuestsAdminController,
    QuestEventQuestsController,
    QuestPlayController,
    QuestHistoryController,
    QuestTasksAdminController,
    QuestSubmissionsAdminController,
    GameEventsAdminController,
    QuestPlatformsAdminController,
  ],
  providers: [
    QuestsService,
    QuestsRepository,
    QuestReferencesReadModel,
    QuestListReadModel,
    QuestListsCache,
    QuestTasksRepository,
    QuestTasksService,
    QuestStreaksRepository,
    GameEventsRepository,
    GameEventsService,
    QuestPlatformsRepository,
    QuestPlatformsService,
    QuestSubmissionsReadModel,
    SubmissionQueue,
    ReviewSubmission,
    QuestContextLoader,
    QuestAvailability,
    QuestProgressView,
    QuestHistory,
    VisitLinks,
    VisitTask,
    TaskProgressWriter,
    TaskInputs,
    ClaimQuest,
    CompleteQuest,
    CompletionNotices,
    EventQuestGate,
    QuestRewardsPayer,
    TaskVerifiers,
    VerificationLimits,
    SocialVerifier,
    OnchainVerifier,
    PartnerVerifier,
    GameEventVerifier,
    ReferralsVerifier,
    ResourceVerifier,
    QuestRefVerifier,
  ],
})
export class QuestsModule {}
