import { Injectable } from '@nestjs/common';
import { toPage, type Page, type PageRequest } from '../../common/pagination/pagination.js';
import type { QuestHistoryItemDto } from '../dto/quest-play.dto.js';
import { QuestsRepository } from '../quests.repository.js';

/** A player's completions, newest first. */
@Injectable()
export class QuestHistory {
  constructor(private readonly quests: QuestsRepository) {}

  async page(tenantId: string, userId: string, page: PageRequest): Promise<Page<QuestHistoryItemDto>> {
    const [rows, total] = await this.quests.history(tenantId, userId, page);
    return toPage(
      rows.map((r) => ({ ...r, completedAt: r.completedAt.toISOString() })),
      total,
      page,
    );
  }
}
