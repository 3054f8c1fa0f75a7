import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestEventsModule } from '../quest-events/quest-events.module.js';
import { Participant } from './entities/participant.entity.js';
import { ParticipationAdminController } from './participation.admin.controller.js';
import { ParticipationController } from './participation.controller.js';
import { ParticipationService } from './participation.service.js';

/** The participant lifecycle of quest events (one transition table, `participant-status.ts`). */
@Module({
  imports: [TypeOrmModule.forFeature([Participant]), QuestEventsModule],
  controllers: [ParticipationController, ParticipationAdminController],
  providers: [ParticipationService],
})
export class ParticipationModule {}
