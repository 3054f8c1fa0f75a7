import { DomainError } from '../common/errors/domain-error.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import { idOf } from '../common/validation/uuid.js';
import type { Season, SeasonReward, SeasonSchedule } from './entities/season.entity.js';
import { SeasonCron } from './season-schedule.js';
import { SeasonErrors } from './seasons.errors.js';
import type { SeasonsRepository, SeasonStatus } from './seasons.repository.js';

/**
 * A season opens at least this long after it is defined: the ledger counts an entry on the seasons
 * it sees when it writes the entry, so a season must exist before its window starts (no backfill;
 * docs/decisions.md "Seasons").
 */
export const SEASON_START_MARGIN_MS = 2000;

export function seasonStatus(s: Pick<Season, 'startsAt' | 'endsAt' | 'closedAt'>, now: Date): SeasonStatus {
  if (s.closedAt) return 'closed';
  if (now < s.startsAt) return 'upcoming';
  if (now < s.endsAt) return 'live';
  return 'closing';
}

/** The final places a reward covers among `ranked` players: [from, to] (empty when to < from). */
export function rewardRange(r: SeasonReward, ranked: number): { from: number; to: number } {
  if (r.topPercent !== undefined) return { from: 1, to: Math.min(ranked, Math.ceil((ranked * r.topPercent) / 100 - 1e-9)) };
  return { from: r.fromRank!, to: Math.min(ranked, r.toRank!) };
}

/** The schedule's cron expression, a 400 `invalid_season` when it does not parse. */
export function seasonCron(expression: string, timeZone: string): SeasonCron {
  try {
    return new SeasonCron(expression, timeZone);
  } catch (e) {
    throw new DomainError(SeasonErrors.invalid_season, (e as Error).message);
  }
}

/** The tenant's season `id` (404 otherwise; `where` words the message). */
export async function findSeason(repo: SeasonsRepository, tenantId: string, id: string, where = 'in this tenant'): Promise<Season> {
  const key = idOf(id);
  const season = key ? await repo.findById(tenantId, key) : null;
  if (!season) throw new DomainError(ResourceErrors.season_not_found, `No season ${id.slice(0, 64)} ${where}`);
  return season;
}

/** The tenant's season schedule `id` (404 otherwise). */
export async function findSchedule(repo: SeasonsRepository, tenantId: string, id: string): Promise<SeasonSchedule> {
  const key = idOf(id);
  const s = key ? await repo.findSchedule(tenantId, key) : null;
  if (!s) throw new DomainError(SeasonErrors.season_schedule_not_found, `No season schedule ${id.slice(0, 64)} in this tenant`);
  return s;
}
