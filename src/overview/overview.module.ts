import { Module } from '@nestjs/common';
import { OverviewAdminController } from './overview.admin.controller.js';
import { OverviewReadModel } from './overview.read-model.js';
import { OverviewService } from './overview.service.js';

/** The console's overview page: counts read across the modules' tables (OverviewReadModel). */
@Module({
  controllers: [OverviewAdminController],
  providers: [OverviewService, OverviewReadModel],
})
export class OverviewModule {}
