import { defineErrors } from '../common/errors/error-catalog.js';

export const UserErrors = defineErrors({
  username_taken: { status: 409, code: 11001, description: 'The username is already registered in this tenant.' },
  handle_taken: { status: 409, code: 11002, description: 'The handle is already used by another user of this tenant.' },
  handle_reserved: {
    status: 400,
    description:
      "The handle reads as one the tenant reserves (staff names such as admin, support or moderator, also written with digits or separators, and the tenant's own name): choose another.",
  },
  self_referral: { status: 400, description: 'A user cannot refer themselves.' },
  unknown_referrer: { status: 400, description: 'referrerHandle names no user of this tenant (or, for a community, no member of it).' },
  user_not_found: { status: 404, code: 11004, description: 'No such user in this tenant.' },
});
