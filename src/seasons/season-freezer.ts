import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { SeasonBoardsService } from '../resources/season-boards.service.js';
import type { Season } from './entities/season.entity.js';
import { SeasonsCaches } from './seasons.caches.js';
import { SeasonsRepository } from './seasons.repository.js';

/** Leaves live requests the share `percent` says after a step of the close that began at `started`. */
export async function restAfter(started: number, percent: number): Promise<void> {
  const ms = ((performance.now() - started) * percent) / 100;
  if (ms >= 1) await sleep(ms);
}

/** A season's final standings, written from its board once it ended. */
@Injectable()
export class SeasonFreezer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: SeasonsRepository,
    private readonly boards: SeasonBoardsService,
    private readonly caches: SeasonsCaches,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Freezes the season's standings in chunks of `SEASON_FREEZE_CHUNK` places, each its own short
   * statement, resting between them (`restAfter`); then marks the season frozen with its number of
   * places. The board no longer changes once the season ended (and the grace for transactions in
   * flight passed), so the chunks together are the standings of one moment. Resumes after the
   * last place written (a crash, another instance), and a second freeze changes nothing. Null when
   * the lease was lost on the way (`keepLease` said false; another instance goes on) or the worker
   * is stopping (`stopped`).
   */
  async freeze(season: Season, keepLease: () => Promise<boolean>, stopped: () => boolean): Promise<Season | null> {
    const chunk = this.config.SEASON_FREEZE_CHUNK;
    for (let after = await this.boards.frozenThrough(season.id); ;) {
      const started = performance.now();
      const taken = await this.boards.freezeChunk(season.id, after, chunk);
      if (taken < chunk) break;
      after += taken;
      if (stopped() || !(await keepLease())) return null;
      await restAfter(started, this.config.SEASON_CLOSE_REST_PERCENT);
    }
    await this.dataSource.transaction(async (em) => {
      await this.repo.markFrozen(season.id, await this.boards.standingsCount(em, season.id), this.clock.now(), em);
      this.caches.frozenIn(em, season.tenantId);
    });
    return (await this.repo.findById(season.tenantId, season.id))!;
  }
}
