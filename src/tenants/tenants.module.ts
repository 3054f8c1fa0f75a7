import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantDomain } from './entities/tenant-domain.entity.js';
import { Tenant } from './entities/tenant.entity.js';
import { TenantsAdminController } from './tenants.admin.controller.js';
import { TenantsRepository } from './tenants.repository.js';
import { TenantsService } from './tenants.service.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const TENANTS_ENTITIES = [Tenant, TenantDomain];

@Module({
  imports: [TypeOrmModule.forFeature(TENANTS_ENTITIES)],
  controllers: [TenantsAdminController],
  providers: [TenantsService, TenantsRepository],
  exports: [TenantsService],
})
export class TenantsModule {}
