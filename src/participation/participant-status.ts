/**
 * The participant lifecycle: ONE table, pure, used by the participation use cases (every status change
 * goes through `nextStatus`, then through a conditional UPDATE whose `WHERE status = ANY(from)`
 * repeats the same table, so a concurrent change can never slip past it).
 */
export enum ParticipantStatus {
  REGISTERED = 1,
  UNREGISTERED = 2,
  DROPPED = 3,
  CANCELLED = 4,
}

export const PARTICIPANT_STATUS_NAMES: Record<ParticipantStatus, string> = {
  [ParticipantStatus.REGISTERED]: 'REGISTERED',
  [ParticipantStatus.UNREGISTERED]: 'UNREGISTERED',
  [ParticipantStatus.DROPPED]: 'DROPPED',
  [ParticipantStatus.CANCELLED]: 'CANCELLED',
};

/** What can happen to a participation. `drop` is the service's or the management API's. */
export type ParticipantAction = 'register' | 'unregister' | 'cancel' | 'drop';
export const PARTICIPANT_ACTIONS: readonly ParticipantAction[] = ['register', 'unregister', 'cancel', 'drop'];

/** `null` = the user has no participation yet. */
export type ParticipantState = ParticipantStatus | null;
export const PARTICIPANT_STATES: readonly ParticipantState[] = [null, 1, 2, 3, 4];

/**
 * The transition table: for each action, the states it may start from and the state it leads to.
 * Anything not listed is refused (400, naming the current status).
 *
 * | action     | from                       | to           | also needs (checked by the service)        |
 * |------------|----------------------------|--------------|--------------------------------------------|
 * | register   | (none), UNREGISTERED       | REGISTERED   | registration open, a free seat (atomic)     |
 * | unregister | REGISTERED                 | UNREGISTERED | the event has not started                   |
 * | cancel     | REGISTERED                 | CANCELLED    | the event has not ended; final; score revoked |
 * | drop       | REGISTERED                 | DROPPED      | the event is not completed; final; score revoked |
 */
export const PARTICIPANT_TRANSITIONS: Record<ParticipantAction, { from: readonly ParticipantState[]; to: ParticipantStatus }> = {
  register: { from: [null, ParticipantStatus.UNREGISTERED], to: ParticipantStatus.REGISTERED },
  unregister: { from: [ParticipantStatus.REGISTERED], to: ParticipantStatus.UNREGISTERED },
  cancel: { from: [ParticipantStatus.REGISTERED], to: ParticipantStatus.CANCELLED },
  drop: { from: [ParticipantStatus.REGISTERED], to: ParticipantStatus.DROPPED },
};

export function statusName(s: ParticipantState): string {
  return s === null ? 'NOT_REGISTERED' : PARTICIPANT_STATUS_NAMES[s];
}

/** The state `action` leads to from `current`, or null when the table forbids it. */
export function nextStatus(current: ParticipantState, action: ParticipantAction): ParticipantStatus | null {
  const t = PARTICIPANT_TRANSITIONS[action];
  return t.from.includes(current) ? t.to : null;
}

/** The stored statuses `action` may start from (for the conditional UPDATE). */
export function fromStatuses(action: ParticipantAction): ParticipantStatus[] {
  return PARTICIPANT_TRANSITIONS[action].from.filter((s): s is ParticipantStatus => s !== null);
}

/** The message of a refused transition: names the action and the current status. */
export function refusalMessage(current: ParticipantState, action: ParticipantAction): string {
  const allowed = PARTICIPANT_TRANSITIONS[action].from.map(statusName).join(' or ');
  return `Cannot ${action}: the participation is ${statusName(current)} (${action} needs ${allowed})`;
}
