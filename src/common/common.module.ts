import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AccessGuard } from './auth/access.guard.js';
import { JwtStrategy } from './auth/jwt.strategy.js';
import { SessionRevocations } from './auth/session-revocations.js';
import { Clock } from './clock/clock.js';
import { EncryptionService } from './crypto/encryption.service.js';
import { SecretsService } from './crypto/secrets.service.js';
import { UnknownPathFallback } from './errors/unknown-path.fallback.js';

/** Cross-cutting providers every module may use. */
@Global()
@Module({
  imports: [PassportModule],
  providers: [
    Clock,
    SecretsService,
    EncryptionService,
    SessionRevocations,
    JwtStrategy,
    { provide: APP_GUARD, useClass: AccessGuard },
    UnknownPathFallback,
  ],
  exports: [Clock, SecretsService, EncryptionService, SessionRevocations],
})
export class CommonModule {}
