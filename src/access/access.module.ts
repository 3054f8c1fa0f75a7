import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from '../tenants/tenants.module.js';
import { AccessGuard } from './access.guard.js';
import { SessionRevocation } from './entities/session-revocation.entity.js';
import { JwtStrategy } from './jwt.strategy.js';
import { SessionRevocations } from './session-revocations.js';
import { SessionRevocationsRepository } from './session-revocations.repository.js';
import { UrlCredentials } from './url-credentials.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const ACCESS_ENTITIES = [SessionRevocation];

/**
 * Who is calling: the global guard that admits a request by its tenant API key or session token
 * (`@Public`, `@SessionAuth`, `@ApiKeyAuth`), and the ended sessions it refuses. Above tenants
 * (an API key names its tenant); the auth module, which issues sessions, records their end here.
 */
@Module({
  imports: [PassportModule, TenantsModule, TypeOrmModule.forFeature(ACCESS_ENTITIES)],
  providers: [SessionRevocations, SessionRevocationsRepository, JwtStrategy, UrlCredentials, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [SessionRevocations, UrlCredentials],
})
export class AccessModule {}
