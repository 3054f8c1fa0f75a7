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
});
