import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CommunitiesService } from '../../communities/communities.service.js';
import type { QuestTask } from '../entities/quest-task.entity.js';
import type { Quest } from '../entities/quest.entity.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestsRepository } from '../quests.repository.js';
import { previousPeriod, questPeriod, type QuestPeriod } from '../schedule/quest-period.js';
import { QuestTasksRepository } from '../tasks/quest-tasks.repository.js';

/** A quest, its tasks and the period a request is in, read once at its start (a claim at a boundary counts in one period). */
export interface QuestContext {
  quest: Quest;
  tasks: QuestTask[];
  timeZone: string;
  period: QuestPeriod;
  previousKey: string | null;
  now: Date;
}

/** Reads the context of a player's request on a quest: the quest (active, of the tenant), its tasks, the period now. */
@Injectable()
export class QuestContextLoader {
  constructor(
    private readonly quests: QuestsRepository,
    private readonly tasks: QuestTasksRepository,
    private readonly communities: CommunitiesService,
    private readonly clock: Clock,
  ) {}

  async load(tenantId: string, questRef: string, { activeOnly = true } = {}): Promise<QuestContext> {
    const quest = await this.quests.findById(tenantId, questRef);
    if (!quest || (activeOnly && quest.status !== 'active'))
      throw new DomainError(QuestErrors.quest_not_found, `No active quest ${questRef.slice(0, 64)} in this tenant`);
    return this.of(tenantId, quest);
  }

  /** The context now, or in the period holding `at` (a submission reviewed after its period ended counts in its own). */
  async of(tenantId: string, quest: Quest, at?: Date): Promise<QuestContext> {
    const [tasks, community] = await Promise.all([
      this.tasks.findTasks(tenantId, quest.id),
      this.communities.resolveShared(tenantId, quest.communityId),
    ]);
    const now = at ?? this.clock.now();
    const timeZone = community.timeZone ?? 'UTC';
    const period = questPeriod(quest.recurrence, timeZone, now);
    return { quest, tasks, timeZone, period, previousKey: previousPeriod(quest.recurrence, timeZone, period)?.key ?? null, now };
  }
}
