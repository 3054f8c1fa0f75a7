import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainEvents } from '../common/events/domain-events.js';
import type { Season } from './entities/season.entity.js';
import { SEASON_START_MARGIN_MS, seasonCron } from './season-rules.js';
import type { SeasonCreated } from './seasons.events.js';
import { SeasonsRepository } from './seasons.repository.js';

/** Creates seasons: a defined one, and the next of each schedule (the worker's first step). */
@Injectable()
export class SeasonOpener {
  private readonly logger = new Logger(SeasonOpener.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Makes sure the schedule has its next season: while the latest one has started (or none
   * exists), the next one is created, from the latest one's end (or from now when the service
   * missed whole periods) to the following occurrence. Concurrent callers create it once
   * (unique schedule + start).
   */
  async openNext(scheduleId: string, tenantId: string, marginMs = SEASON_START_MARGIN_MS): Promise<Season | null> {
    const schedule = await this.repo.findSchedule(tenantId, scheduleId);
    if (!schedule?.active) return null;
    const now = this.clock.now();
    const latest = await this.repo.latestOf(schedule.id);
    if (latest && latest.starts_at > now) return null;
    const cron = seasonCron(schedule.cron, schedule.timeZone);
    const earliest = new Date(now.getTime() + marginMs);
    const startsAt = latest && latest.ends_at >= earliest ? latest.ends_at : earliest;
    const endsAt = cron.next(startsAt);
    const number = (latest?.number ?? 0) + 1;
    return this.insertAndAnnounce({
      tenantId,
      communityId: schedule.communityId,
      resourceTypeId: schedule.resourceTypeId,
      scheduleId: schedule.id,
      number,
      name: `${schedule.name} #${number}`,
      startsAt,
      endsAt,
      reasons: schedule.reasons,
      questIds: schedule.questIds,
      rewards: schedule.rewards,
      createdAt: now,
    });
  }

  /** Inserts the season and publishes `season.created` in one transaction (nothing when a concurrent caller created it). */
  insertAndAnnounce(row: Parameters<SeasonsRepository['insert']>[0]): Promise<Season | null> {
    return this.dataSource.transaction(async (em) => {
      const season = await this.repo.insert(row, em);
      if (season) await this.events.publish(em, 'season.created', seasonCreated(season));
      return season;
    });
  }

  /** Opens the next season of every schedule that needs one (every tenant); how many were opened. */
  async openDueSeasons(): Promise<number> {
    let opened = 0;
    for (const d of await this.repo.schedulesDue(this.clock.now(), 100)) {
      // One schedule that fails must not stop the others, nor the closes that follow in the pass.
      try {
        if (await this.openNext(d.id, d.tenant_id)) opened++;
      } catch (err) {
        this.logger.error({ err, scheduleId: d.id }, 'opening the next season of a schedule failed; the next pass tries again');
      }
    }
    return opened;
  }
}

function seasonCreated(s: Season): SeasonCreated {
  return {
    tenantId: s.tenantId,
    seasonId: s.id,
    communityId: s.communityId,
    resourceTypeId: s.resourceTypeId,
    scheduleId: s.scheduleId,
    number: s.number,
    name: s.name,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
  };
}
