import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommunitiesAdminController } from './communities.admin.controller.js';
import { CommunitiesController } from './communities.controller.js';
import { CommunitiesRepository } from './communities.repository.js';
import { CommunityMembersReadModel } from './community-members.read-model.js';
import { CommunityReferralsReadModel } from './community-referrals.read-model.js';
import { CommunitiesService } from './communities.service.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const COMMUNITIES_ENTITIES = [Community, CommunityMember];

/**
 * Communities, membership, referrals into communities, and the community-facing ranking and
 * leaderboard. Global: other domains resolve communities with `CommunitiesService.resolve`.
 */
@Module({
  imports: [TypeOrmModule.forFeature(COMMUNITIES_ENTITIES), UsersModule],
  controllers: [CommunitiesController, CommunitiesAdminController],
  providers: [CommunitiesService, CommunitiesRepository, CommunityReferralsReadModel, CommunityMembersReadModel],
  exports: [CommunitiesService],
})
export class CommunitiesModule {}
