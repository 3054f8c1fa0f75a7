import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WalletsModule } from '../wallets/wallets.module.js';
import { AvatarMint } from './entities/avatar-mint.entity.js';
import { AvatarSlot } from './entities/avatar-slot.entity.js';
import { Avatar } from './entities/avatar.entity.js';
import { InventoryItem } from './entities/inventory-item.entity.js';
import { InventoryItemShard } from './entities/inventory-item-shard.entity.js';
import { InventorySlot } from './entities/inventory-slot.entity.js';
import { ItemGrant } from './entities/item-grant.entity.js';
import { UserItem } from './entities/user-item.entity.js';
import { HoldingsReadModel } from './holdings.read-model.js';
import { InventoryAdminController, InventoryUsersAdminController } from './inventory.admin.controller.js';
import { InventoryController } from './inventory.controller.js';
import { InventoryService } from './inventory.service.js';
import { InventoryRepository } from './inventory.repository.js';
import { AvatarRepository } from './avatar.repository.js';
import { AvatarMintRepository } from './avatar-mint.repository.js';
import { AvatarMintService } from './minting/avatar-mint.service.js';
import { AvatarSnapshots } from './minting/avatar-snapshots.js';
import { AvatarViews } from './minting/avatar-views.js';
import { MintRecipients } from './minting/mint-recipients.js';
import { RequestAvatarMint } from './minting/request-avatar-mint.js';
import { BlockchainsService } from './minting/blockchains.service.js';
import { MintSender } from './minting/mint-sender.js';
import { MintWorker } from './minting/mint-worker.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const INVENTORY_ENTITIES = [InventorySlot, InventoryItem, InventoryItemShard, UserItem, ItemGrant, Avatar, AvatarSlot, AvatarMint];

/**
 * Slots, items, holdings, the avatar and its NFT mints, per community. Global: the store, quests
 * and events grant items with `InventoryService.grantItem(em, ...)` inside their transactions.
 */
@Module({
  imports: [TypeOrmModule.forFeature(INVENTORY_ENTITIES), WalletsModule, CommunitiesModule, NotificationsModule, UsersModule],
  controllers: [InventoryController, InventoryAdminController, InventoryUsersAdminController],
  providers: [
    InventoryService,
    InventoryRepository,
    HoldingsReadModel,
    AvatarRepository,
    AvatarMintRepository,
    AvatarMintService,
    AvatarViews,
    RequestAvatarMint,
    MintRecipients,
    AvatarSnapshots,
    BlockchainsService,
    MintSender,
    MintWorker,
  ],
  exports: [InventoryService, InventoryRepository],
})
export class InventoryModule {}
