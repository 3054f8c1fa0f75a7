import { defineErrors } from '../common/errors/error-catalog.js';

export const SocialErrors = defineErrors({
  unsupported_account_type: {
    status: 400,
    description: 'accountType (or the path type) is not one of the supported social account types.',
  },
  social_not_found: { status: 404, code: 60001, description: 'No linked social account with this id belongs to the current user.' },
  social_account_taken: {
    status: 409,
    code: 60002,
    description: 'This account (type and subject) is already linked to another user of the tenant.',
  },
});
