import { jest } from '@jest/globals';
import { isoDate, isoDateOrNull } from './iso-date.js';

describe('isoDate', () => {
  it('writes a date as JSON does, once per Date object', () => {
    const d = new Date('2026-11-25T23:59:59.123Z');
    expect(isoDate(d)).toBe(JSON.parse(JSON.stringify(d)));
    const spy = jest.spyOn(d, 'toISOString');
    expect(isoDate(d)).toBe('2026-11-25T23:59:59.123Z');
    expect(spy).not.toHaveBeenCalled();
    expect(isoDate(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoDateOrNull(null)).toBeNull();
    expect(isoDateOrNull(d)).toBe('2026-11-25T23:59:59.123Z');
  });
});
