import { dateOfBirthProblem } from './date-of-birth.js';

describe('dateOfBirthProblem', () => {
  const today = new Date('2026-03-01T23:30:00Z');

  it.each([[{ year: 2000, month: 2, day: 29 }], [{ year: 1990, month: 12, day: 31 }], [{ year: 2026, month: 2, day: 28 }]])(
    'accepts the past calendar date %j',
    (d) => {
      expect(dateOfBirthProblem(d, today)).toBeNull();
    },
  );

  it.each([
    [{ year: 2001, month: 2, day: 29 }, /not a calendar date/],
    [{ year: 2026, month: 4, day: 31 }, /not a calendar date/],
    [{ year: 2026, month: 3, day: 1 }, /before today/],
    [{ year: 2027, month: 1, day: 1 }, /before today/],
  ])('refuses %j', (d, message) => {
    expect(dateOfBirthProblem(d, today)).toMatch(message);
  });

  it('uses the UTC date of the clock', () => {
    // 00:30 on 2 March in UTC+1 is still 1 March in UTC: 1 March is "today".
    expect(dateOfBirthProblem({ year: 2026, month: 3, day: 1 }, new Date('2026-03-01T23:30:00Z'))).toMatch(/before today/);
    expect(dateOfBirthProblem({ year: 2026, month: 3, day: 1 }, new Date('2026-03-02T00:00:00Z'))).toBeNull();
  });
});
