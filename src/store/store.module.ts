import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrizesModule } from '../prizes/prizes.module.js';
import { StoreListing } from './entities/store-listing.entity.js';
import { StorePurchaseCount } from './entities/store-purchase-count.entity.js';
import { StorePurchase } from './entities/store-purchase.entity.js';
import { RequirementsModule } from './requirements/requirements.module.js';
import { StoreAdminController } from './store.admin.controller.js';
import { StoreController } from './store.controller.js';
import { StorePurchaseService } from './store-purchase.service.js';
import { StoreService } from './store.service.js';

/** The community store under /v1/store (balance, listings, purchases), managed under /v1/admin/store. */
@Module({
  imports: [TypeOrmModule.forFeature([StoreListing, StorePurchase, StorePurchaseCount]), RequirementsModule, PrizesModule],
  controllers: [StoreController, StoreAdminController],
  providers: [StoreService, StorePurchaseService],
})
export class StoreModule {}
