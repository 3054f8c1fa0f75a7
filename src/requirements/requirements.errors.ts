import { defineErrors } from '../common/errors/error-catalog.js';

/** Requirement errors: codes 40006-40008, in the store's range (40000-40099) where requirements began. */
export const RequirementErrors = defineErrors({
  requirement_not_met: {
    status: 403,
    code: 40006,
    description: 'A condition of the listing is not met (e.g. owning an item, a minimum XP); details name the requirement.',
  },
  requirement_not_found: { status: 404, code: 40007, description: 'No such requirement definition in this tenant.' },
  requirement_key_taken: { status: 409, code: 40008, description: 'The tenant already has a requirement with this key.' },
  requirement_data_invalid: {
    status: 400,
    description:
      "Requirement data is missing, unknown to the listing, repeated, or does not match the requirement's JSON schema; `details` name the requirement and the reasons.",
  },
  invalid_requirement: {
    status: 400,
    description: 'The requirement definition is inconsistent (bad JSON schema, missing item or resource type for its kind).',
  },
});
