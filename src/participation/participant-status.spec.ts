import {
  nextStatus,
  ParticipantStatus,
  PARTICIPANT_ACTIONS,
  PARTICIPANT_STATES,
  refusalMessage,
  type ParticipantAction,
  type ParticipantState,
} from './participant-status.js';

const { REGISTERED, UNREGISTERED, DROPPED, CANCELLED } = ParticipantStatus;

/** The expected table, written out for every (state, action) pair. */
const expected: Record<string, ParticipantStatus | null> = {
  'none/register': REGISTERED,
  'none/unregister': null,
  'none/cancel': null,
  'none/drop': null,
  '1/register': null,
  '1/unregister': UNREGISTERED,
  '1/cancel': CANCELLED,
  '1/drop': DROPPED,
  '2/register': REGISTERED,
  '2/unregister': null,
  '2/cancel': null,
  '2/drop': null,
  '3/register': null,
  '3/unregister': null,
  '3/cancel': null,
  '3/drop': null,
  '4/register': null,
  '4/unregister': null,
  '4/cancel': null,
  '4/drop': null,
};

describe('participant transition table', () => {
  const pairs: [ParticipantState, ParticipantAction][] = PARTICIPANT_STATES.flatMap((s) =>
    PARTICIPANT_ACTIONS.map((a) => [s, a] as [ParticipantState, ParticipantAction]),
  );

  it('covers all 20 (state, action) pairs', () => {
    expect(pairs).toHaveLength(20);
    expect(Object.keys(expected)).toHaveLength(20);
  });

  it.each(pairs)('from %p, %s gives the expected state', (state, action) => {
    expect(nextStatus(state, action)).toBe(expected[`${state ?? 'none'}/${action}`]);
  });

  it('DROPPED and CANCELLED are final: no action leaves them', () => {
    for (const s of [DROPPED, CANCELLED]) for (const a of PARTICIPANT_ACTIONS) expect(nextStatus(s, a)).toBeNull();
  });

  it('a refusal names the current status', () => {
    expect(refusalMessage(CANCELLED, 'register')).toContain('CANCELLED');
    expect(refusalMessage(null, 'cancel')).toContain('NOT_REGISTERED');
    expect(refusalMessage(UNREGISTERED, 'unregister')).toContain('UNREGISTERED');
  });
});
