import { CronTime } from 'cron';

/** Shortest period between two season starts: a schedule that opens seasons more often is refused. */
export const MIN_SEASON_MS = 60 * 60 * 1000;
/** Longest season of a schedule (and of a one-off window). */
export const MAX_SEASON_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * A season schedule's cron expression in its IANA time zone (the `cron` package, which the
 * scheduler of @nestjs/schedule uses: five or six fields, daylight-saving changes handled by luxon).
 * Throws `Error` with a readable message when the expression or the zone is invalid, or when the
 * schedule would open seasons more often than every hour or less often than yearly.
 */
export class SeasonCron {
  private readonly time: CronTime;

  constructor(
    readonly expression: string,
    readonly timeZone: string,
  ) {
    try {
      this.time = new CronTime(expression, timeZone);
    } catch (e) {
      throw new Error(`invalid cron expression or time zone: ${(e as Error).message.split('\n')[0]}`, { cause: e });
    }
  }

  /** The first occurrence strictly after `after`. */
  next(after: Date): Date {
    try {
      return this.time.getNextDateFrom(after, this.timeZone).toJSDate();
    } catch (e) {
      throw new Error('the cron expression has no occurrence in the next years', { cause: e });
    }
  }

  /** Checks the period between the next occurrences after `from` (see the class doc). */
  checkPeriod(from: Date): void {
    let at = this.next(from);
    for (let i = 0; i < 4; i++) {
      const following = this.next(at);
      const ms = following.getTime() - at.getTime();
      if (ms < MIN_SEASON_MS) throw new Error('the schedule would open a season more often than every hour');
      if (ms > MAX_SEASON_MS) throw new Error('the schedule would open a season less often than once a year');
      at = following;
    }
  }
}
