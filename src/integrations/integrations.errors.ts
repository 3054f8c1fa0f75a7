import { defineErrors } from '../common/errors/error-catalog.js';

export const IntegrationErrors = defineErrors({
  subscription_not_found: { status: 404, code: 70001, description: 'No webhook subscription with this id in this tenant.' },
  delivery_not_found: { status: 404, code: 70002, description: 'No webhook delivery with this id in this tenant.' },
  webhook_url_refused: {
    status: 400,
    description:
      'The webhook URL is not an absolute http(s) URL without credentials, or its host resolves to a private, loopback, link-local or otherwise non-public address (refused against server-side request forgery).',
  },
  unknown_event_type: { status: 400, description: 'An event type is not in the catalogue (GET /v1/admin/webhooks/event-types).' },
  too_many_subscriptions: { status: 409, code: 70003, description: 'The tenant has the most webhook subscriptions allowed (50).' },
  secret_rotated_concurrently: {
    status: 409,
    code: 70004,
    description:
      "Another rotation of this subscription's secret was applied at the same time; this one changed nothing (the secret in effect is the other answer's). Rotate again if a newer secret is still wanted.",
  },
});
