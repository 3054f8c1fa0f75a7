import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SocialsModule } from '../socials/socials.module.js';
import { UserProfile } from './entities/user-profile.entity.js';
import { ProfileController } from './profile.controller.js';
import { ProfileRepository } from './profile.repository.js';
import { ProfileService } from './profile.service.js';
import { CommunitiesModule } from '../communities/communities.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { ResourcesModule } from '../resources/resources.module.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const PROFILE_ENTITIES = [UserProfile];

@Module({
  imports: [TypeOrmModule.forFeature(PROFILE_ENTITIES), SocialsModule, CommunitiesModule, InventoryModule, ResourcesModule, UsersModule],
  controllers: [ProfileController],
  providers: [ProfileService, ProfileRepository],
})
export class ProfileModule {}
