import { defineErrors } from '../common/errors/error-catalog.js';

export const ResourceErrors = defineErrors({
  resource_type_not_found: {
    status: 404,
    code: 20101,
    description: 'No resource type with this id (or slug in this community) in this tenant.',
  },
  resource_type_slug_taken: { status: 409, code: 20102, description: 'The community already has a resource type with this slug.' },
  insufficient_balance: { status: 409, code: 20103, description: 'The user does not hold enough of the resource; nothing was changed.' },
  idempotency_key_reused: {
    status: 409,
    code: 20104,
    description: 'The idempotency key was already used for a different operation (another user, resource type or amount).',
  },
  season_not_found: {
    status: 404,
    code: 20105,
    description: 'No such season of this resource in this community (or, for `current`, none is running now).',
  },
  invalid_resource_type: { status: 400, description: 'A global resource type cannot name a quest event.' },
  amount_too_large: { status: 400, description: 'The resulting amount would exceed the largest supported value (2^53 - 1).' },
});
