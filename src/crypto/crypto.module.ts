import { Global, Module } from '@nestjs/common';
import { AppSecretsRepository } from './app-secrets.repository.js';
import { EncryptionService } from './encryption.service.js';
import { AppSecret } from './entities/app-secret.entity.js';
import { SecretsService } from './secrets.service.js';

export const CRYPTO_ENTITIES = [AppSecret];

/**
 * Infrastructure, global like the configuration and the database: the keys the service signs and
 * encrypts with (from the configuration, or generated once and kept in `app_secrets`) and the
 * encryption of secrets at rest. It sits above the database layer, so it is not part of `common`
 * (which the database layer itself uses).
 */
@Global()
@Module({
  providers: [SecretsService, AppSecretsRepository, EncryptionService],
  exports: [SecretsService, EncryptionService],
})
export class CryptoModule {}
