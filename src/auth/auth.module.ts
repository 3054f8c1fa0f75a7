import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ThrottlingModule } from '../common/throttling/throttling.module.js';
import { WalletsModule } from '../wallets/wallets.module.js';
import { AuthController } from './auth.controller.js';
import { Identity } from './entities/identity.entity.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { UsedNonce } from './entities/used-nonce.entity.js';
import { IdentityLoginService } from './identity-login.service.js';
import { LoginController } from './login.controller.js';
import { NonceService } from './nonce.service.js';
import { PasswordAuthService } from './password-auth.service.js';
import { ProviderACredentialService } from './provider-a-credential.service.js';
import { SessionTokenService } from './session-token.service.js';
import { SiweLoginService } from './siwe-login.service.js';
import { TokenLoginService } from './token-login.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([RefreshToken, Identity, UsedNonce]), ThrottlingModule, WalletsModule],
  controllers: [AuthController, LoginController],
  providers: [
    PasswordAuthService,
    SessionTokenService,
    NonceService,
    IdentityLoginService,
    TokenLoginService,
    ProviderACredentialService,
    SiweLoginService,
  ],
  exports: [SessionTokenService, IdentityLoginService],
})
export class AuthModule {}
