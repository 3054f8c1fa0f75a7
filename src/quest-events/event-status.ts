/**
 * Quest event statuses. Three are explicit (stored in `state`): `draft` (not visible to users),
 * `cancelled` and `completed` (tickets allocated). A published event moves through the others by
 * its times alone, read from the injectable Clock; a `completing` one (stored while its completion
 * runs, step by step: EventCompletionService) shows as `ended`:
 *
 *   upcoming → registration_open → active → ended → (completion) completed
 *
 * - `upcoming`: published, registration not open yet and not started.
 * - `registration_open`: `registrationStartsAt <= now < registrationEndsAt`, before `startsAt`.
 * - `active`: `startsAt <= now < endsAt` (registration may still be open: see `registrationOpen`).
 * - `ended`: `now >= endsAt`, tickets not allocated yet (the completion worker picks it up), or
 *   closed and still being completed (`completing`, whatever the time).
 * - `completed`: tickets allocated (end passed and the worker ran, or the management API closed it).
 * - `cancelled`: by the management API; nothing is allocated.
 */
export const EVENT_STATUSES = ['draft', 'upcoming', 'registration_open', 'active', 'ended', 'completed', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** What is stored; the rest is derived. `completing`: claimed by a completion that has not finished its steps. */
export const EVENT_STATES = ['draft', 'published', 'completing', 'cancelled', 'completed'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export interface EventTimes {
  state: EventState;
  registrationStartsAt: Date;
  registrationEndsAt: Date;
  startsAt: Date;
  endsAt: Date;
}

export function eventStatus(e: EventTimes, now: Date): EventStatus {
  if (e.state === 'completing') return 'ended';
  if (e.state !== 'published') return e.state;
  const t = now.getTime();
  if (t >= e.endsAt.getTime()) return 'ended';
  if (t >= e.startsAt.getTime()) return 'active';
  return isRegistrationOpen(e, now) ? 'registration_open' : 'upcoming';
}

/** Registration is open on a published event inside its window and before its end. */
export function isRegistrationOpen(e: EventTimes, now: Date): boolean {
  const t = now.getTime();
  return e.state === 'published' && t >= e.registrationStartsAt.getTime() && t < e.registrationEndsAt.getTime() && t < e.endsAt.getTime();
}

/** Times must be ordered: registration opens before it closes and before the start; start before end; registration closes by the end. */
export function timesProblem(e: Omit<EventTimes, 'state'>): string | null {
  if (e.registrationStartsAt.getTime() >= e.registrationEndsAt.getTime()) return 'registrationStartsAt must be before registrationEndsAt';
  if (e.registrationStartsAt.getTime() > e.startsAt.getTime()) return 'registrationStartsAt must not be after startsAt';
  if (e.startsAt.getTime() >= e.endsAt.getTime()) return 'startsAt must be before endsAt';
  if (e.registrationEndsAt.getTime() > e.endsAt.getTime()) return 'registrationEndsAt must not be after endsAt';
  return null;
}
