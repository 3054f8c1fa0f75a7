import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import type { AdminSeasonDto, SeasonDto, SeasonScheduleDto } from './dto/season.dto.js';
import type { Season, SeasonSchedule } from './entities/season.entity.js';
import { seasonStatus } from './season-rules.js';
import { SeasonCron } from './season-schedule.js';
import { SeasonsRepository } from './seasons.repository.js';

/** How seasons and schedules read to players and operators (statuses and next starts from the clock). */
@Injectable()
export class SeasonViews {
  constructor(
    private readonly repo: SeasonsRepository,
    private readonly clock: Clock,
  ) {}

  view(s: Season, slug: string): SeasonDto {
    return {
      id: s.id,
      communityId: s.communityId,
      resourceTypeId: s.resourceTypeId,
      resourceSlug: slug,
      scheduleId: s.scheduleId,
      number: s.number,
      name: s.name,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      status: seasonStatus(s, this.clock.now()),
      reasons: s.reasons,
      questIds: s.questIds,
      rewards: s.rewards.map((r) => ({
        fromRank: r.fromRank ?? null,
        toRank: r.toRank ?? null,
        topPercent: r.topPercent ?? null,
        type: r.type,
        refId: r.refId,
        amount: r.amount,
      })),
      ranked: s.frozenAt ? s.ranked : null,
      closedAt: s.closedAt,
    };
  }

  async adminView(s: Season, slug: string): Promise<AdminSeasonDto> {
    const counts = await this.repo.payoutCounts(s.id);
    return {
      ...this.view(s, slug),
      frozenAt: s.frozenAt,
      paidThrough: s.paidThrough,
      rewardsPaid: counts.paid,
      rewardsFailed: counts.failed,
    };
  }

  scheduleView(s: SeasonSchedule): SeasonScheduleDto {
    let nextStartsAt: Date | null = null;
    if (s.active) nextStartsAt = new SeasonCron(s.cron, s.timeZone).next(this.clock.now());
    return {
      id: s.id,
      communityId: s.communityId,
      resourceTypeId: s.resourceTypeId,
      name: s.name,
      cron: s.cron,
      timeZone: s.timeZone,
      reasons: s.reasons,
      questIds: s.questIds,
      rewards: s.rewards.map((r) => ({
        fromRank: r.fromRank ?? null,
        toRank: r.toRank ?? null,
        topPercent: r.topPercent ?? null,
        type: r.type,
        refId: r.refId,
        amount: r.amount,
      })),
      active: s.active,
      nextStartsAt,
    };
  }
}
