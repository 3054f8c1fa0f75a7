import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from '../tenants/tenants.module.js';
import { Referral } from './entities/referral.entity.js';
import { User } from './entities/user.entity.js';
import { ReferralsService } from './referrals.service.js';
import { UsersAdminController } from './users.admin.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const USERS_ENTITIES = [User, Referral];

@Module({
  imports: [TypeOrmModule.forFeature(USERS_ENTITIES), TenantsModule],
  controllers: [UsersAdminController],
  providers: [UsersService, ReferralsService, UsersRepository],
  exports: [UsersService, ReferralsService],
})
export class UsersModule {}
