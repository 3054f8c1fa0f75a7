import { isTimeZone } from '../../common/validation/time-zone.js';
import { previousPeriod, questPeriod } from './quest-period.js';

describe('quest periods', () => {
  it('puts an instant in one day, ISO week and month of the community time zone', () => {
    // 23:30 on Sunday 2026-11-29 in UTC is 00:30 on Monday 2026-11-30 in Berlin.
    const at = new Date('2026-11-29T23:30:00Z');
    expect(questPeriod('daily', 'UTC', at)).toEqual({
      key: '2026-11-29',
      start: new Date('2026-11-29T00:00:00Z'),
      end: new Date('2026-11-30T00:00:00Z'),
    });
    expect(questPeriod('daily', 'Europe/Berlin', at)).toMatchObject({ key: '2026-11-30', start: new Date('2026-11-29T23:00:00Z') });
    expect(questPeriod('weekly', 'UTC', at).key).toBe('2026-W48');
    expect(questPeriod('weekly', 'Europe/Berlin', at)).toMatchObject({ key: '2026-W49', start: new Date('2026-11-29T23:00:00Z') });
    expect(questPeriod('monthly', 'Europe/Berlin', new Date('2026-11-30T23:30:00Z')).key).toBe('2026-12');
    expect(questPeriod('once', 'Europe/Berlin', at)).toEqual({ key: 'once', start: null, end: null });
  });

  it('counts the last millisecond of a period in it and the next one in the next', () => {
    const day = questPeriod('daily', 'America/New_York', new Date('2026-03-08T12:00:00Z'));
    // 8 March 2026: clocks go forward in New York, the day is 23 hours long.
    expect(day.end!.getTime() - day.start!.getTime()).toBe(23 * 3600_000);
    expect(questPeriod('daily', 'America/New_York', new Date(day.end!.getTime() - 1)).key).toBe(day.key);
    expect(questPeriod('daily', 'America/New_York', day.end!).key).toBe('2026-03-09');
  });

  it('names the previous period, across a year of ISO weeks', () => {
    const first = questPeriod('weekly', 'UTC', new Date('2027-01-04T10:00:00Z'));
    expect(first.key).toBe('2027-W01');
    expect(previousPeriod('weekly', 'UTC', first)!.key).toBe('2026-W53');
    expect(previousPeriod('monthly', 'UTC', questPeriod('monthly', 'UTC', new Date('2026-01-15T00:00:00Z')))!.key).toBe('2025-12');
    expect(previousPeriod('once', 'UTC', questPeriod('once', 'UTC', new Date()))).toBeNull();
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('x'.repeat(100))).toBe(false);
  });
});
