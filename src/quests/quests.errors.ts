import { defineErrors } from '../common/errors/error-catalog.js';

export const QuestErrors = defineErrors({
  quest_not_found: { status: 404, code: 30001, description: 'No quest with this id in this tenant.' },
  invalid_quest: {
    status: 400,
    description: 'The quest is inconsistent: an unknown reward resource type or item, or an event of another community.',
  },
  scoped_reward_outside_event: {
    status: 400,
    description:
      "A reward names a scoped resource type that is not bound to the quest's own event: a quest without an event, a quest of another event, or a scoped type bound to no event yet (an event binds it when it takes it as its score). A scoped type scores one event, credited only through its quests.",
  },
  quest_not_completable: {
    status: 400,
    description:
      'The quest cannot be completed now: it is not active, or it belongs to an event that is not active or in which the user is not REGISTERED.',
  },
  task_not_found: { status: 404, code: 30002, description: 'No task with this id in this quest.' },
  invalid_task: {
    status: 400,
    description:
      "The task is inconsistent: settings of another kind, a chain that is not configured, a resource type or quest outside the quest's community, more than 20 tasks.",
  },
  quest_not_claimable: {
    status: 409,
    code: 30003,
    description:
      'The quest cannot be claimed by the player now: it has no tasks (only the management API completes it), it is outside its availability window, its cooldown or completion limit holds, a prerequisite quest is not completed, or a gate (account age, wallet, linked social) is not met. `detail` says which; `details.retryAt` says when, where a time will lift it.',
  },
  task_not_open: {
    status: 409,
    code: 30004,
    description:
      'The task takes no such input now: it is of another kind, done already in this period, waiting after a wrong answer (`details.retryAt`), out of attempts for this period, or its submission is waiting for review.',
  },
  wrong_answer: {
    status: 400,
    description: 'The answer is not one the task accepts. `details.attemptsLeft` (null: no limit) and `details.retryAt` say what is left.',
  },
  submission_invalid: {
    status: 400,
    description: 'The submission does not fit the task: longer than its `maxLength`, or not an http(s) URL where the task asks for one.',
  },
  invalid_game_events: { status: 400, description: 'The batch of game events repeats an idempotency key.' },
  submission_not_found: { status: 404, code: 30005, description: 'No submission with this id waits for review in this tenant.' },
  visit_link_invalid: { status: 400, description: 'The visit link is not one this service issued, or it has expired.' },
  platform_not_configured: { status: 404, code: 30006, description: 'The community has no credential for this platform.' },
  claims_limited: {
    status: 429,
    code: 30007,
    description:
      'Too many claims or verifications by this player, or checks against other systems for this community, in a short time; retry after `Retry-After`.',
  },
});
