import { IntegrationsModule } from '../integrations/integrations.module.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RankBucket, RankBucketDelta } from './entities/rank-bucket.entity.js';
import { ResourceBalance } from './entities/resource-balance.entity.js';
import { ResourceLedgerEntry } from './entities/resource-ledger-entry.entity.js';
import { ResourceType } from './entities/resource-type.entity.js';
import { SeasonScore, SeasonStanding } from './entities/season-board.entity.js';
import { SeasonBoardsRepository } from './season-boards.repository.js';
import { SeasonBoardsService } from './season-boards.service.js';
import { LedgerService } from './ledger.service.js';
import { LedgerRepository } from './ledger.repository.js';
import { LedgerTargetsReadModel } from './ledger-targets.read-model.js';
import { LeaderboardReadModel } from './leaderboard.read-model.js';
import { RankBucketsRepository } from './rank-buckets.repository.js';
import { ResourceTypesRepository } from './resource-types.repository.js';
import { RankingService } from './ranking.service.js';
import { PostgresRankStore } from './pg-rank-store.js';
import { RankPeople } from './rank-people.js';
import { RankStore } from './rank-store.js';
import { RedisRankStore } from './redis-rank-store.js';
import { AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { redisTarget } from '../common/redis/new-redis.js';
import { CommunityRankingController } from './community-ranking.controller.js';
import { CommunityRankingService } from './community-ranking.service.js';
import { ResourcesAdminController } from './resources.admin.controller.js';
import { ResourcesController } from './resources.controller.js';
import { ResourcesService } from './resources.service.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const RESOURCES_ENTITIES = [
  ResourceType,
  ResourceBalance,
  ResourceLedgerEntry,
  RankBucket,
  RankBucketDelta,
  SeasonScore,
  SeasonStanding,
];

/**
 * Resource types, the ledger and rankings. Global: the store, quests and events modules call
 * `LedgerService.credit/debit` inside their own transactions.
 */
@Module({
  imports: [TypeOrmModule.forFeature(RESOURCES_ENTITIES), CommunitiesModule, UsersModule, IntegrationsModule],
  controllers: [ResourcesController, CommunityRankingController, ResourcesAdminController],
  providers: [
    ResourcesService,
    LedgerService,
    RankingService,
    PostgresRankStore,
    {
      // Redis sorted sets shared by every instance when REDIS_URL (or REDIS_CLUSTER_NODES) is set, else PostgreSQL alone.
      provide: RankStore,
      inject: [AppConfig, PostgresRankStore, LeaderboardReadModel, RankPeople, DomainEvents],
      useFactory: (config: AppConfig, pg: PostgresRankStore, rows: LeaderboardReadModel, people: RankPeople, events: DomainEvents) => {
        const redis = redisTarget(config);
        return redis ? new RedisRankStore(redis, pg, rows, people, events, config.REDIS_COMMAND_TIMEOUT_MS) : pg;
      },
    },
    CommunityRankingService,
    LedgerRepository,
    LedgerTargetsReadModel,
    LeaderboardReadModel,
    RankBucketsRepository,
    RankPeople,
    ResourceTypesRepository,
    SeasonBoardsRepository,
    SeasonBoardsService,
  ],
  exports: [ResourcesService, LedgerService, RankingService, ResourceTypesRepository, SeasonBoardsService],
})
export class ResourcesModule {}
