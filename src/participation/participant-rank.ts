import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { RankingService } from '../resources/ranking.service.js';
import type { ParticipantRankDto } from './dto/participant.dto.js';
import { findParticipant } from './participant-lookup.js';
import { ParticipantStatus } from './participant-status.js';
import { ParticipantsRepository } from './participants.repository.js';

/** A participant's place: live on the event leaderboard, or in the final standings once completed. */
@Injectable()
export class ParticipantRank {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: QuestEventsService,
    private readonly repo: ParticipantsRepository,
    private readonly rankings: RankingService,
  ) {}

  /**
   * The user's rank on the event leaderboard (same rules and mechanism as community leaderboards);
   * once the event is completed, their place in its final standings, as the leaderboard shows them.
   */
  async rank(tenantId: string, userId: string, eventRef: string): Promise<ParticipantRankDto> {
    const event = await this.events.resolve(tenantId, eventRef);
    const p = await findParticipant(this.repo, this.dataSource.manager, event.id, userId, true);
    const base = { eventId: event.id, userId, status: p.status };
    if (event.state === 'completed') {
      const f = await this.events.finalStanding(event.id, userId, 2);
      if (p.status !== ParticipantStatus.REGISTERED)
        return { ...base, rank: null, score: 0, totalRanked: f.totalRanked, above: [], below: [] };
      return { ...base, rank: f.rank, score: Number(p.score), totalRanked: f.totalRanked, above: f.above, below: f.below };
    }
    if (!event.scoreResourceTypeId) return { ...base, rank: null, score: 0, totalRanked: 0, above: [], below: [] };
    const r = await this.rankings.userRanking(event.scoreResourceTypeId, userId, 2);
    if (p.status !== ParticipantStatus.REGISTERED)
      return { ...base, rank: null, score: 0, totalRanked: r.totalRanked, above: [], below: [] };
    return { ...base, rank: r.rank, score: r.amount, totalRanked: r.totalRanked, above: r.above, below: r.below };
  }
}
