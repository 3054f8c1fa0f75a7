import { defineErrors } from '../common/errors/error-catalog.js';

/** The live notification stream's own cases (extension routes). */
export const NotificationErrors = defineErrors({
  stream_ticket_invalid: {
    status: 401,
    code: 71001,
    description:
      'The stream ticket is unknown, already used or expired (a ticket is valid about a minute, once); ask for a new one with POST /v1/user/notifications/stream-ticket.',
  },
  last_event_id_invalid: {
    status: 400,
    description:
      '`Last-Event-ID` (or `lastEventId`) is not an id this service sent on the notification stream (malformed, or from another database); reconnect without it and list what was missed with GET /v1/user/notifications.',
  },
  stream_limit_reached: {
    status: 429,
    code: 71002,
    description: 'The user already has the most notification streams an instance keeps open for one user; close one first.',
  },
  stream_capacity_reached: {
    status: 503,
    code: 71003,
    description:
      'The instance keeps as many notification streams open as it is configured for, and this tenant holds at least its share of them (a tenant holding fewer takes a slot from the tenant holding most); retry later (another instance may take it).',
  },
});
