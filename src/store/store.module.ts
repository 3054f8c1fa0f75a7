import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrizesModule } from '../prizes/prizes.module.js';
import { StoreListing } from './entities/store-listing.entity.js';
import { StoreListingShard } from './entities/store-listing-shard.entity.js';
import { StorePurchaseCount } from './entities/store-purchase-count.entity.js';
import { StorePurchase } from './entities/store-purchase.entity.js';
import { RequirementsModule } from '../requirements/requirements.module.js';
import { StoreAdminController } from './store.admin.controller.js';
import { StoreController } from './store.controller.js';
import { StoreService } from './store.service.js';
import { StoreListingsService } from './store-listings.service.js';
import { StorePurchaseHistoryService } from './store-purchase-history.service.js';
import { StoreCaches } from './store.caches.js';
import { StorePurchaseService } from './purchase/store-purchase.service.js';
import { OneStatementPurchase } from './purchase/one-statement-purchase.js';
import { TransactionalPurchase } from './purchase/transactional-purchase.js';
import { PurchaseReplays } from './purchase/purchase-replays.js';
import { PurchaseChecks } from './purchase/purchase-checks.js';
import { PurchaseSettlement } from './purchase/purchase-settlement.js';
import { PurchaseEvents } from './purchase/purchase-events.js';
import { ListingSupply } from './purchase/listing-supply.js';
import { StoreListingRepository } from './store-listing.repository.js';
import { StorePurchaseRepository } from './store-purchase.repository.js';
import { StoreCatalogReadModel } from './store-catalog.read-model.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { IntegrationsModule } from '../integrations/integrations.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const STORE_ENTITIES = [StoreListing, StoreListingShard, StorePurchase, StorePurchaseCount];

/** The community store under /v1/store (balance, listings, purchases), managed under /v1/admin/store. */
@Module({
  imports: [
    TypeOrmModule.forFeature(STORE_ENTITIES),
    RequirementsModule,
    PrizesModule,
    CommunitiesModule,
    InventoryModule,
    ResourcesModule,
    NotificationsModule,
    IntegrationsModule,
    UsersModule,
  ],
  controllers: [StoreController, StoreAdminController],
  providers: [
    StoreService,
    StoreListingsService,
    StorePurchaseHistoryService,
    StoreCaches,
    // A purchase: the facade the controller calls, its two paths, and what they share.
    StorePurchaseService,
    OneStatementPurchase,
    TransactionalPurchase,
    PurchaseReplays,
    PurchaseChecks,
    PurchaseSettlement,
    PurchaseEvents,
    ListingSupply,
    StoreListingRepository,
    StorePurchaseRepository,
    StoreCatalogReadModel,
  ],
})
export class StoreModule {}
