import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RankBucket, RankBucketDelta } from './entities/rank-bucket.entity.js';
import { ResourceBalance } from './entities/resource-balance.entity.js';
import { ResourceLedgerEntry } from './entities/resource-ledger-entry.entity.js';
import { ResourceType } from './entities/resource-type.entity.js';
import { LedgerService } from './ledger.service.js';
import { RankingService } from './ranking.service.js';
import { ResourcesAdminController } from './resources.admin.controller.js';
import { ResourcesController } from './resources.controller.js';
import { ResourcesService } from './resources.service.js';

/**
 * Resource types, the ledger and rankings. Global: the store, quests and events modules call
 * `LedgerService.credit/debit` inside their own transactions.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ResourceType, ResourceBalance, ResourceLedgerEntry, RankBucket, RankBucketDelta])],
  controllers: [ResourcesController, ResourcesAdminController],
  providers: [ResourcesService, LedgerService, RankingService],
  exports: [ResourcesService, LedgerService, RankingService],
})
export class ResourcesModule {}
