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
    recurrence: q.recurrence,
    taskCount: q.taskCount,
    cooldownSeconds: q.cooldownSeconds,
    maxCompletions: q.maxCompletions,
    availableFrom: q.availableFrom ? isoDate(q.availableFrom) : null,
    availableUntil: q.availableUntil ? isoDate(q.availableUntil) : null,
    prerequisites: q.prerequisites,
    streakBonus: q.streakBonus ? { every: q.streakBonus.every, rewards: q.streakBonus.rewards.map(toRewardDto) } : null,
    gates: q.gates,
    createdAt: isoDate(q.createdAt),
  };
}
