import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthController } from './auth.controller.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { PasswordAuthService } from './password-auth.service.js';
import { SessionTokenService } from './session-token.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([RefreshToken])],
  controllers: [AuthController],
  providers: [PasswordAuthService, SessionTokenService],
  exports: [SessionTokenService],
})
export class AuthModule {}
