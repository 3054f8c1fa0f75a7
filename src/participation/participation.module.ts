import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestEventsModule } from '../quest-events/quest-events.module.js';
import { Participant } from './entities/participant.entity.js';
import { ParticipationAdminController, ParticipationUsersAdminController } from './participation.admin.controller.js';
import { ParticipationController } from './participation.controller.js';
import { ParticipationService } from './participation.service.js';
import { ParticipationSubscribers } from './participation.subscribers.js';
import { LeaveEvent } from './leave-event.js';
import { ParticipantRank } from './participant-rank.js';
import { ParticipantReads } from './participant-reads.js';
import { RegisterParticipant } from './register-participant.js';
import { SyncParticipantScore } from './sync-participant-score.js';
import { ParticipantListReadModel } from './participant-list.read-model.js';
import { ParticipantsRepository } from './participants.repository.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const PARTICIPATION_ENTITIES = [Participant];

/** The participant lifecycle of quest events (one transition table, `participant-status.ts`). */
@Module({
  imports: [
    TypeOrmModule.forFeature(PARTICIPATION_ENTITIES),
    QuestEventsModule,
    CommunitiesModule,
    ResourcesModule,
    NotificationsModule,
    UsersModule,
  ],
  controllers: [ParticipationController, ParticipationAdminController, ParticipationUsersAdminController],
  providers: [
    ParticipationSubscribers,
    ParticipationService,
    ParticipantReads,
    ParticipantRank,
    RegisterParticipant,
    LeaveEvent,
    SyncParticipantScore,
    ParticipantsRepository,
    ParticipantListReadModel,
  ],
  exports: [ParticipantsRepository],
})
export class ParticipationModule {}
