import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { SeasonBoardsService } from '../resources/season-boards.service.js';
import type { Season } from './entities/season.entity.js';
import { findSchedule } from './season-rules.js';
import { SeasonErrors } from './seasons.errors.js';
import { SeasonsRepository } from './seasons.repository.js';

/** A finished season with its final scores, recorded after the fact (imports and the demo seed). */
@Injectable()
export class ImportFinishedSeason {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly boards: SeasonBoardsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a season that ended before this service knew of it, with its final scores (a history
   * imported from another system, and the demo seed's past season): the season worker then
   * freezes it and pays its rewards like any other. Only for a window that has ended (no live
   * entry can fall in it any more, so nothing races the import). Not on the HTTP API.
   */
  async importFinished(
    tenantId: string,
    scheduleId: string,
    s: { number: number; name: string; startsAt: Date; endsAt: Date; scores: { userId: string; score: number; reachedAt: Date }[] },
  ): Promise<Season> {
    const schedule = await findSchedule(this.repo, tenantId, scheduleId);
    const now = this.clock.now();
    if (s.endsAt >= now || s.startsAt >= s.endsAt) throw new DomainError(SeasonErrors.invalid_season, 'an imported season must have ended');
    return this.dataSource.transaction(async (em) => {
      const season = await this.repo.insert(
        {
          tenantId,
          communityId: schedule.communityId,
          resourceTypeId: schedule.resourceTypeId,
          scheduleId: schedule.id,
          number: s.number,
          name: s.name,
          startsAt: s.startsAt,
          endsAt: s.endsAt,
          reasons: schedule.reasons,
          questIds: schedule.questIds,
          rewards: schedule.rewards,
          createdAt: now,
        },
        em,
      );
      if (!season) throw new DomainError(SeasonErrors.invalid_season, 'the schedule has a season starting then already');
      await this.boards.importScores(em, tenantId, season.id, s.scores);
      return season;
    });
  }
}
