import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SocialAccount } from './entities/social-account.entity.js';
import { SocialsController } from './socials.controller.js';
import { SocialsService } from './socials.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([SocialAccount])],
  controllers: [SocialsController],
  providers: [SocialsService],
  exports: [SocialsService],
})
export class SocialsModule {}
