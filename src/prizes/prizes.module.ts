import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequirementsModule } from '../store/requirements/requirements.module.js';
import { PrizeAward } from './entities/prize-award.entity.js';
import { Prize } from './entities/prize.entity.js';
import { PrizesAdminController } from './prizes.admin.controller.js';
import { PrizesController } from './prizes.controller.js';
import { PrizesService } from './prizes.service.js';

/**
 * Prizes and achievements under /v1/inventory/prizes, managed under /v1/admin/prizes. Exports
 * `PrizesService.award(em, ...)` for the store and event rewards.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Prize, PrizeAward]), RequirementsModule],
  controllers: [PrizesController, PrizesAdminController],
  providers: [PrizesService],
  exports: [PrizesService],
})
export class PrizesModule {}
