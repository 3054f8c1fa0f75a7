import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SocialAccount } from './entities/social-account.entity.js';
import { SocialsAdminController } from './socials.admin.controller.js';
import { SocialsController } from './socials.controller.js';
import { UsersModule } from '../users/users.module.js';
import { SocialsRepository } from './socials.repository.js';
import { SocialsService } from './socials.service.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const SOCIALS_ENTITIES = [SocialAccount];

@Module({
  imports: [TypeOrmModule.forFeature(SOCIALS_ENTITIES), UsersModule],
  controllers: [SocialsController, SocialsAdminController],
  providers: [SocialsService, SocialsRepository],
  exports: [SocialsService],
})
export class SocialsModule {}
