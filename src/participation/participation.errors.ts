import { defineErrors } from '../common/errors/error-catalog.js';

export const ParticipationErrors = defineErrors({
  participant_transition: {
    status: 400,
    description: 'The participant transition table forbids this action from the current status; the message names it.',
  },
  registration_closed: {
    status: 400,
    description: 'Registration is not open for this event (not published, before the window, after it, or the event ended).',
  },
  event_full: { status: 400, description: 'The event has reached its capacity of REGISTERED participants.' },
  event_already_started: { status: 400, description: 'Unregistering is possible only before the event starts (cancel instead).' },
  event_already_ended: {
    status: 400,
    description: 'The event has ended (or was completed or cancelled): participation cannot change any more.',
  },
  participant_not_found: { status: 404, code: 30601, description: 'The user has never registered for this event.' },
});
