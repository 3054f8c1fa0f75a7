import { SeasonCron } from './season-schedule.js';

describe('SeasonCron', () => {
  it('gives the next Monday midnight in Berlin, across the switch to summer time', () => {
    const weekly = new SeasonCron('0 0 * * 1', 'Europe/Berlin');
    expect(weekly.next(new Date('2026-11-25T10:00:00Z')).toISOString()).toBe('2026-11-29T23:00:00.000Z');
    // 2027-03-28 is the switch: Monday 29 March 00:00 is 22:00 UTC the day before.
    expect(weekly.next(new Date('2027-03-24T00:00:00Z')).toISOString()).toBe('2027-03-28T22:00:00.000Z');
  });

  it('gives occurrences strictly after the date it is given', () => {
    const weekly = new SeasonCron('0 0 * * 1', 'UTC');
    expect(weekly.next(new Date('2026-11-30T00:00:00Z')).toISOString()).toBe('2026-12-07T00:00:00.000Z');
  });

  it('refuses an invalid expression or time zone', () => {
    expect(() => new SeasonCron('every monday', 'UTC')).toThrow(/invalid cron/);
    expect(() => new SeasonCron('0 0 * * 1', 'Mars/Olympus')).toThrow(/invalid cron/);
  });

  it('refuses a schedule that would open seasons more often than hourly, or never', () => {
    expect(() => new SeasonCron('*/5 * * * *', 'UTC').checkPeriod(new Date())).toThrow(/every hour/);
    expect(() => new SeasonCron('0 0 31 2 *', 'UTC').checkPeriod(new Date())).toThrow(/no occurrence/);
    expect(() => new SeasonCron('0 * * * *', 'UTC').checkPeriod(new Date())).not.toThrow();
  });
});
