import { isoDate } from '../common/serialization/iso-date.js';
import type { QuestDto, QuestRewardDto } from './dto/quest.dto.js';
import type { Quest, QuestReward } from './entities/quest.entity.js';

export function toRewardDto(r: QuestReward): QuestRewardDto {
  return r.type === 'resource'
    ? { type: 'resource', resourceTypeId: r.resourceTypeId, amount: r.amount }
    : { type: 'item', itemId: r.itemId, quantity: r.quantity };
}

export function toQuestDto(q: Quest, completed: boolean): QuestDto {
  return {
    id: q.id,
    communityId: q.communityId,
    questEventId: q.questEventId,
    name: q.name,
    description: q.description,
    type: q.type,
    status: q.status,
    tags: q.tags,
    rewards: q.rewards.map(toRewardDto),
    featured: q.featured,
    template: q.template,
    completed,
    createdAt: isoDate(q.createdAt),
  };
}
