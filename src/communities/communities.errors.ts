import { defineErrors } from '../common/errors/error-catalog.js';

export const CommunityErrors = defineErrors({
  community_not_found: { status: 404, code: 20001, description: 'No community with this id or slug in this tenant.' },
  community_slug_taken: { status: 409, code: 20002, description: 'Another community of this tenant already uses this slug.' },
  invalid_community_slug: {
    status: 400,
    description: 'A slug is 1-64 lowercase letters, digits and dashes, not uuid-shaped and not reserved.',
  },
  not_a_member: { status: 403, code: 20003, description: 'The current user is not a member of this community.' },
});
