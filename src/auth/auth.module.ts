import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ThrottlingModule } from './throttling/throttling.module.js';
import { WalletsModule } from '../wallets/wallets.module.js';
import { AuthController } from './auth.controller.js';
import { Identity } from './entities/identity.entity.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { UsedNonce } from './entities/used-nonce.entity.js';
import { IdentityLoginService } from './identity-login.service.js';
import { LoginController } from './login.controller.js';
import { NonceService } from './nonce.service.js';
import { AuthRepository } from './auth.repository.js';
import { PasswordAuthService } from './password-auth.service.js';
import { ProviderACredentialService } from './provider-a-credential.service.js';
import { SessionTokenService } from './session-token.service.js';
import { SiweLoginService } from './siwe-login.service.js';
import { TokenLoginService } from './token-login.service.js';
import { IntegrationsModule } from '../integrations/integrations.module.js';
import { TenantsModule } from '../tenants/tenants.module.js';
import { UsersModule } from '../users/users.module.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const AUTH_ENTITIES = [RefreshToken, Identity, UsedNonce];

@Module({
  imports: [
    TypeOrmModule.forFeature(AUTH_ENTITIES),
    ThrottlingModule,
    WalletsModule,
    AccessModule,
    TenantsModule,
    UsersModule,
    IntegrationsModule,
  ],
  controllers: [AuthController, LoginController],
  providers: [
    PasswordAuthService,
    SessionTokenService,
    NonceService,
    AuthRepository,
    IdentityLoginService,
    TokenLoginService,
    ProviderACredentialService,
    SiweLoginService,
  ],
  exports: [SessionTokenService, IdentityLoginService],
})
export class AuthModule {}
