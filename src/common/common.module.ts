import { Global, Module } from '@nestjs/common';
import { CacheFactory } from './cache/cache-factory.js';
import { Clock } from './clock/clock.js';
import { DomainEvents } from './events/domain-events.js';
import { EncryptionService } from './crypto/encryption.service.js';
import { AppSecretsRepository } from './crypto/app-secrets.repository.js';
import { SecretsService } from './crypto/secrets.service.js';
import { UnknownPathFallback } from './errors/unknown-path.fallback.js';

/** Cross-cutting providers every module may use: the clock, secrets, read caches, domain events. */
@Global()
@Module({
  providers: [Clock, SecretsService, AppSecretsRepository, EncryptionService, UnknownPathFallback, CacheFactory, DomainEvents],
  exports: [Clock, SecretsService, EncryptionService, CacheFactory, DomainEvents],
})
export class CommonModule {}
