import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import { Clock } from '../../common/clock/clock.js';
import { QuestErrors } from '../quests.errors.js';
import type { VisitSettings } from '../tasks/task-kinds.js';
import { QuestContextLoader } from './quest-context.js';
import { TaskProgressWriter } from './task-progress-writer.js';
import { VisitLinks } from './visit-links.js';

/**
 * A player followed a `visit` task's link: the visit is recorded in the period it happens in and
 * the player is sent on to the task's page. The quest completes at the player's next claim (a
 * redirect carries no session to answer with).
 */
@Injectable()
export class VisitTask {
  constructor(
    private readonly links: VisitLinks,
    private readonly contexts: QuestContextLoader,
    private readonly writer: TaskProgressWriter,
    private readonly clock: Clock,
  ) {}

  /** The page to send the player to. */
  async visit(link: string): Promise<string> {
    const claim = await this.links.read(link, this.clock.now());
    if (!claim) throw new DomainError(QuestErrors.visit_link_invalid, 'The link is not valid or has expired');
    const ctx = await this.contexts.load(claim.tenantId, claim.questId);
    const task = ctx.tasks.find((t) => t.id === claim.taskId && t.kind === 'visit');
    if (!task) throw new DomainError(QuestErrors.visit_link_invalid, 'The link names no visit task of this quest');
    await this.writer.markDone(claim.tenantId, claim.userId, ctx, task.id, task.kind);
    return (task.settings as VisitSettings).url;
  }
}
