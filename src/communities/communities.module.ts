import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommunitiesAdminController } from './communities.admin.controller.js';
import { CommunitiesController } from './communities.controller.js';
import { CommunitiesService } from './communities.service.js';
import { CommunityRankingService } from './community-ranking.service.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';

/**
 * Communities, membership, referrals into communities, and the community-facing ranking and
 * leaderboard. Global: other domains resolve communities with `CommunitiesService.resolve`.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Community, CommunityMember])],
  controllers: [CommunitiesController, CommunitiesAdminController],
  providers: [CommunitiesService, CommunityRankingService],
  exports: [CommunitiesService],
})
export class CommunitiesModule {}
