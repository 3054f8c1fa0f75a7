import { Injectable } from '@nestjs/common';
import { toPage, type Page, type PageRequest } from '../../common/pagination/pagination.js';
import type { SubmissionDto, SubmissionQueryDto } from '../dto/quest-review.dto.js';
import { QuestSubmissionsReadModel } from './quest-submissions.read-model.js';

/** The review queue: players' submissions with their quest, task and handle. */
@Injectable()
export class SubmissionQueue {
  constructor(private readonly rows: QuestSubmissionsReadModel) {}

  async page(tenantId: string, q: SubmissionQueryDto, page: PageRequest): Promise<Page<SubmissionDto>> {
    const [rows, total] = await this.rows.page(
      tenantId,
      { state: q.state ?? 'pending', communityId: q.communityId ?? null, questId: q.questId ?? null },
      page,
    );
    return toPage(
      rows.map((r) => ({
        id: r.id,
        questId: r.questId,
        questName: r.questName,
        communityId: r.communityId,
        taskId: r.taskId,
        taskTitle: r.taskTitle,
        userId: r.userId,
        handle: r.handle,
        periodKey: r.periodKey,
        state: r.state,
        content: r.submission ?? '',
        reviewReason: r.reviewReason,
        reviewedBy: r.reviewedBy,
        reviewedAt: r.reviewedAt?.toISOString() ?? null,
        submittedAt: r.submittedAt.toISOString(),
      })),
      total,
      page,
    );
  }
}
