import { defineErrors } from '../common/errors/error-catalog.js';

export const QuestErrors = defineErrors({
  quest_not_found: { status: 404, code: 30001, description: 'No quest with this id in this tenant.' },
  invalid_quest: {
    status: 400,
    description: 'The quest is inconsistent: an unknown reward resource type or item, or an event of another community.',
  },
  quest_not_completable: {
    status: 400,
    description:
      'The quest cannot be completed now: it is not active, or it belongs to an event that is not active or in which the user is not REGISTERED.',
  },
});
