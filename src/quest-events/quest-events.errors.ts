import { defineErrors } from '../common/errors/error-catalog.js';

export const QuestEventErrors = defineErrors({
  quest_event_not_found: {
    status: 404,
    code: 30501,
    description: 'No quest event with this id or slug in this tenant (drafts are invisible to users).',
  },
  quest_event_slug_taken: { status: 409, code: 30502, description: 'Another quest event of this tenant already uses this slug.' },
  invalid_quest_event: {
    status: 400,
    description:
      'The event is inconsistent: unordered times, a score resource that is not a scoped type of its community or that another event has (a scoped type serves one event), or an invalid slug.',
  },
  quest_event_state: {
    status: 400,
    description: 'The event is not in a status that allows this operation (e.g. updating a completed event, closing a draft).',
  },
  reward_not_found: { status: 404, code: 30503, description: 'No reward with this id in this event.' },
  invalid_reward: {
    status: 400,
    description: 'The reward is inconsistent: an unknown resource type or item, or a missing payload for its kind.',
  },
  scoped_event_reward: {
    status: 400,
    description:
      "A `resource` reward names a scoped resource type: another event's would rank someone outside that event, and the event's own is claimed after its completion, when its scores are final. Pay in a global type.",
  },
  ticket_cost_above_tickets: {
    status: 400,
    description:
      'The reward costs more tickets per claim (`ticketCost`) than each participant is allocated (`tickets`): no allocation could ever claim it.',
  },
  start_already_passed: {
    status: 400,
    description:
      'The event has started: its start cannot move later (it would reopen registration and unregistering while scores stand). Only an earlier or the same `startsAt` is accepted.',
  },
  allocation_not_found: {
    status: 404,
    code: 30504,
    description: "No reward allocation with this id for this user in this event (another user's allocation included).",
  },
  not_enough_tickets: {
    status: 400,
    description: 'The allocation has fewer tickets left than the reward costs (e.g. it was already claimed); nothing changed.',
  },
  reward_sold_out: { status: 400, description: 'The reward has no supply left; nothing changed.' },
  claim_requirements: {
    status: 400,
    description: 'The reward needs data that was not given (email, walletAddress, address); nothing changed.',
  },
});
