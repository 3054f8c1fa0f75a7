import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SavedRequirementData } from '../entities/saved-requirement-data.entity.js';
import { StoreRequirement } from '../entities/store-requirement.entity.js';
import { RequirementsService } from './requirements.service.js';

/** Requirement definitions and users' saved data: used by the store and by prizes. */
@Module({
  imports: [TypeOrmModule.forFeature([StoreRequirement, SavedRequirementData])],
  providers: [RequirementsService],
  exports: [RequirementsService],
})
export class RequirementsModule {}
