import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WalletsModule } from '../wallets/wallets.module.js';
import { AvatarMint } from './entities/avatar-mint.entity.js';
import { AvatarSlot } from './entities/avatar-slot.entity.js';
import { Avatar } from './entities/avatar.entity.js';
import { InventoryItem } from './entities/inventory-item.entity.js';
import { InventorySlot } from './entities/inventory-slot.entity.js';
import { ItemGrant } from './entities/item-grant.entity.js';
import { UserItem } from './entities/user-item.entity.js';
import { InventoryAdminController } from './inventory.admin.controller.js';
import { InventoryController } from './inventory.controller.js';
import { InventoryService } from './inventory.service.js';
import { AvatarMintService } from './minting/avatar-mint.service.js';
import { BlockchainsService } from './minting/blockchains.service.js';
import { MintSender } from './minting/mint-sender.js';
import { MintWorker } from './minting/mint-worker.js';

/**
 * Slots, items, holdings, the avatar and its NFT mints, per community. Global: the store, quests
 * and events grant items with `InventoryService.grantItem(em, ...)` inside their transactions.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([InventorySlot, InventoryItem, UserItem, ItemGrant, Avatar, AvatarSlot, AvatarMint]), WalletsModule],
  controllers: [InventoryController, InventoryAdminController],
  providers: [InventoryService, AvatarMintService, BlockchainsService, MintSender, MintWorker],
  exports: [InventoryService],
})
export class InventoryModule {}
