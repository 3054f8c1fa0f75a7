import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantDomain } from './entities/tenant-domain.entity.js';
import { Tenant } from './entities/tenant.entity.js';
import { TenantsAdminController } from './tenants.admin.controller.js';
import { TenantsService } from './tenants.service.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Tenant, TenantDomain])],
  controllers: [TenantsAdminController],
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
