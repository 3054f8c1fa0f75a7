import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommunitiesService } from './communities.service.js';
import { CommunityMember } from './entities/community-member.entity.js';
import { Community } from './entities/community.entity.js';

/** Communities, membership and referrals into communities. Global: other domains resolve communities. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Community, CommunityMember])],
  providers: [CommunitiesService],
  exports: [CommunitiesService],
})
export class CommunitiesModule {}
