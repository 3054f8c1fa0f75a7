import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Referral } from './entities/referral.entity.js';
import { User } from './entities/user.entity.js';
import { ReferralsService } from './referrals.service.js';
import { UsersService } from './users.service.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([User, Referral])],
  providers: [UsersService, ReferralsService],
  exports: [UsersService, ReferralsService],
})
export class UsersModule {}
