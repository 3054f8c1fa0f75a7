import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SavedRequirementData } from './entities/saved-requirement-data.entity.js';
import { StoreRequirement } from './entities/store-requirement.entity.js';
import { RequirementsService } from './requirements.service.js';
import { RequirementsRepository } from './requirements.repository.js';
import { RequirementConditionsReadModel } from './requirement-conditions.read-model.js';

/** The tables this module owns (each module registers its own; src/app.entities.ts lists them all). */
export const REQUIREMENTS_ENTITIES = [StoreRequirement, SavedRequirementData];

/** Requirement definitions and users' saved data: used by the store and by prizes. */
@Module({
  imports: [TypeOrmModule.forFeature(REQUIREMENTS_ENTITIES)],
  providers: [RequirementsService, RequirementsRepository, RequirementConditionsReadModel],
  exports: [RequirementsService],
})
export class RequirementsModule {}
