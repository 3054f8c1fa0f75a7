import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Wallet } from './entities/wallet.entity.js';
import { WalletsAdminController } from './wallets.admin.controller.js';
import { WalletsController } from './wallets.controller.js';
import { UsersModule } from '../users/users.module.js';
import { WalletsRepository } from './wallets.repository.js';
import { WalletsService } from './wallets.service.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const WALLETS_ENTITIES = [Wallet];

@Module({
  imports: [TypeOrmModule.forFeature(WALLETS_ENTITIES), UsersModule],
  controllers: [WalletsController, WalletsAdminController],
  providers: [WalletsService, WalletsRepository],
  exports: [WalletsService],
})
export class WalletsModule {}
