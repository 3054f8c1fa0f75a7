import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SocialsModule } from '../socials/socials.module.js';
import { UserProfile } from './entities/user-profile.entity.js';
import { ProfileController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([UserProfile]), SocialsModule],
  controllers: [ProfileController],
  providers: [ProfileService],
})
export class ProfileModule {}
