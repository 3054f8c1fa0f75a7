import { defineErrors } from '../common/errors/error-catalog.js';

export const ProfileErrors = defineErrors({
  invalid_date_of_birth: { status: 400, description: 'dateOfBirth is not a real calendar date before today (UTC), from 1900 on.' },
  profile_user_not_found: { status: 404, code: 60101, description: 'No user with this id, handle or username in the tenant.' },
});
