import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../common/pagination/pagination.js';
import type {
  AdminSeasonDto,
  CreateSeasonDto,
  CreateSeasonScheduleDto,
  SeasonDto,
  SeasonPayoutDto,
  SeasonScheduleDto,
  UpdateSeasonScheduleDto,
} from './dto/season.dto.js';
import type { Season } from './entities/season.entity.js';
import { ImportFinishedSeason } from './import-finished-season.js';
import { SeasonDefinitions } from './season-definitions.js';
import { SeasonOpener } from './season-opener.js';
import { SeasonReads } from './season-reads.js';
import type { SeasonStatus } from './seasons.repository.js';

/**
 * Seasons of resource leaderboards, as the controllers and the seed call them: definitions,
 * schedules and what players and operators read, each use case its own class.
 */
@Injectable()
export class SeasonsService {
  constructor(
    private readonly definitions: SeasonDefinitions,
    private readonly reads: SeasonReads,
    private readonly opener: SeasonOpener,
    private readonly importer: ImportFinishedSeason,
  ) {}

  // ---------------------------------------------------------------- management

  createSeason(tenantId: string, dto: CreateSeasonDto): Promise<AdminSeasonDto> {
    return this.definitions.createSeason(tenantId, dto);
  }

  createSchedule(
    tenantId: string,
    dto: CreateSeasonScheduleDto,
    opts: { open?: boolean; marginMs?: number } = {},
  ): Promise<SeasonScheduleDto> {
    return this.definitions.createSchedule(tenantId, dto, opts);
  }

  updateSchedule(tenantId: string, id: string, dto: UpdateSeasonScheduleDto): Promise<SeasonScheduleDto> {
    return this.definitions.updateSchedule(tenantId, id, dto);
  }

  getSchedule(tenantId: string, id: string): Promise<SeasonScheduleDto> {
    return this.reads.getSchedule(tenantId, id);
  }

  listSchedules(tenantId: string, communityRef: string, page: PageRequest): Promise<Page<SeasonScheduleDto>> {
    return this.reads.listSchedules(tenantId, communityRef, page);
  }

  adminGet(tenantId: string, id: string): Promise<AdminSeasonDto> {
    return this.reads.adminGet(tenantId, id);
  }

  payouts(tenantId: string, id: string, page: PageRequest): Promise<Page<SeasonPayoutDto>> {
    return this.reads.payouts(tenantId, id, page);
  }

  // ---------------------------------------------------------------- reads

  list(
    tenantId: string,
    communityRef: string,
    q: { status?: SeasonStatus; resource?: string },
    page: PageRequest,
  ): Promise<Page<SeasonDto>> {
    return this.reads.list(tenantId, communityRef, q, page);
  }

  get(tenantId: string, communityRef: string, id: string): Promise<SeasonDto> {
    return this.reads.get(tenantId, communityRef, id);
  }

  // ---------------------------------------------------------------- schedules and imports

  openNext(scheduleId: string, tenantId: string, marginMs?: number): Promise<Season | null> {
    return this.opener.openNext(scheduleId, tenantId, marginMs);
  }

  openDueSeasons(): Promise<number> {
    return this.opener.openDueSeasons();
  }

  importFinished(
    tenantId: string,
    scheduleId: string,
    s: { number: number; name: string; startsAt: Date; endsAt: Date; scores: { userId: string; score: number; reachedAt: Date }[] },
  ): Promise<Season> {
    return this.importer.importFinished(tenantId, scheduleId, s);
  }
}
