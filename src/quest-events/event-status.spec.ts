import { eventStatus, isRegistrationOpen, timesProblem, type EventTimes } from './event-status.js';

const at = (h: number) => new Date(Date.UTC(2030, 0, 1, h));
const base: EventTimes = { state: 'published', registrationStartsAt: at(1), registrationEndsAt: at(5), startsAt: at(3), endsAt: at(10) };

describe('quest event status', () => {
  it.each([
    [0, 'upcoming'],
    [1, 'registration_open'],
    [2, 'registration_open'],
    [3, 'active'],
    [9, 'active'],
    [10, 'ended'],
    [20, 'ended'],
  ])('a published event at hour %d is %s', (h, status) => {
    expect(eventStatus(base, at(h))).toBe(status);
  });

  it('explicit states win over the times', () => {
    for (const state of ['draft', 'cancelled', 'completed'] as const) expect(eventStatus({ ...base, state }, at(4))).toBe(state);
  });

  it('a completing event (closed, its completion still running) is ended whatever the time, and open to nobody', () => {
    for (const h of [2, 4, 20]) expect(eventStatus({ ...base, state: 'completing' }, at(h))).toBe('ended');
    expect(isRegistrationOpen({ ...base, state: 'completing' }, at(2))).toBe(false);
  });

  it('registration is open only in its window, published, and before the end', () => {
    expect(isRegistrationOpen(base, at(0))).toBe(false);
    expect(isRegistrationOpen(base, at(4))).toBe(true);
    expect(isRegistrationOpen(base, at(5))).toBe(false);
    expect(isRegistrationOpen({ ...base, state: 'draft' }, at(2))).toBe(false);
  });

  it('refuses unordered times', () => {
    expect(timesProblem(base)).toBeNull();
    expect(timesProblem({ ...base, registrationEndsAt: at(1) })).toMatch(/registrationStartsAt/);
    expect(timesProblem({ ...base, startsAt: at(0) })).toMatch(/startsAt/);
    expect(timesProblem({ ...base, endsAt: at(3) })).toMatch(/endsAt/);
    expect(timesProblem({ ...base, registrationEndsAt: at(11) })).toMatch(/registrationEndsAt/);
  });
});
