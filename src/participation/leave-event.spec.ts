import type { EntityManager } from 'typeorm';
import type { DomainError } from '../common/errors/domain-error.js';
import { NotificationType } from '../notifications/notification-types.js';
import type { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import type { Participant } from './entities/participant.entity.js';
import { LeaveEvent } from './leave-event.js';
import { ParticipantStatus } from './participant-status.js';

const NOW = new Date('2030-01-10T12:00:00Z');
const em = {} as EntityManager;

/** LeaveEvent over recording fakes: the order of its writes and its refusals, without a database. */
function setUp(opts: { state?: QuestEvent['state']; startsAt?: Date; changed?: boolean; statusAfter?: ParticipantStatus } = {}) {
  const calls: string[] = [];
  const event = {
    id: 'e1',
    tenantId: 't1',
    communityId: 'c1',
    name: 'Cup',
    state: opts.state ?? 'published',
    scoreResourceTypeId: 'score',
    registrationStartsAt: new Date('2030-01-01T00:00:00Z'),
    registrationEndsAt: new Date('2030-01-09T00:00:00Z'),
    startsAt: opts.startsAt ?? new Date('2030-01-11T00:00:00Z'),
    endsAt: new Date('2030-01-20T00:00:00Z'),
  } as QuestEvent;
  let participant = { id: 'p1', eventId: 'e1', userId: 'u1', status: ParticipantStatus.REGISTERED, score: 5 } as Participant;
  const leave = new LeaveEvent(
    { transaction: (work: (m: EntityManager) => Promise<unknown>) => work(em) } as never,
    { resolve: () => Promise.resolve(event) } as never,
    { freeSeat: () => Promise.resolve(void calls.push('freeSeat')) } as never,
    {
      findByEventAndUser: () => Promise.resolve(participant),
      changeStatus: (_e: string, _u: string, to: ParticipantStatus) => {
        calls.push(`changeStatus ${to}`);
        if (opts.changed === false) participant = { ...participant, status: opts.statusAfter! };
        else participant = { ...participant, status: to };
        return Promise.resolve(opts.changed ?? true);
      },
      resetScore: () => Promise.resolve(void calls.push('resetScore')),
    } as never,
    {
      getBalance: () => Promise.resolve({ balance: 7 }),
      debit: (_m: EntityManager, d: { amount: number; idempotencyKey: string }) =>
        Promise.resolve(void calls.push(`debit ${d.amount} ${d.idempotencyKey}`)),
    } as never,
    { notify: (_m: EntityManager, n: { type: NotificationType }) => Promise.resolve(void calls.push(`notify ${n.type}`)) } as never,
    {
      publish: (_m: EntityManager, type: string, e: { from: string; to: string }) =>
        Promise.resolve(void calls.push(`${type} ${e.from}→${e.to}`)),
    } as never,
    { now: () => NOW } as never,
  );
  return { leave, calls };
}

async function refusal(p: Promise<unknown>): Promise<{ error: string; message: string; details?: Record<string, unknown> }> {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as DomainError | null;
  if (!e) throw new Error('expected a refusal');
  return { error: e.definition.error, message: e.message, details: e.details };
}

describe('LeaveEvent (collaborators replaced)', () => {
  it('drops: status, event, freed seat, then the score revoked by its key, then the player told', async () => {
    const { leave, calls } = setUp();
    const dto = await leave.drop('t1', 'e1', 'u1', 'cheating');
    expect(dto.status).toBe(ParticipantStatus.DROPPED);
    expect(calls).toEqual([
      `changeStatus ${ParticipantStatus.DROPPED}`,
      'participant.status_changed REGISTERED→DROPPED',
      'freeSeat',
      'resetScore',
      'debit 7 event-drop:p1',
      `notify ${NotificationType.EventDropped}`,
    ]);
  });

  it('unregisters without touching the score or telling anyone', async () => {
    const { leave, calls } = setUp();
    await leave.unregister('t1', 'u1', 'e1');
    expect(calls).toEqual([
      `changeStatus ${ParticipantStatus.UNREGISTERED}`,
      'participant.status_changed REGISTERED→UNREGISTERED',
      'freeSeat',
    ]);
  });

  it('refuses to unregister once the event has started (cancel instead), before any write', async () => {
    const { leave, calls } = setUp({ startsAt: new Date('2030-01-10T00:00:00Z') });
    expect((await refusal(leave.unregister('t1', 'u1', 'e1'))).error).toBe('event_already_started');
    expect(calls).toEqual([]);
  });

  it('changes nothing while the event is being completed', async () => {
    const { leave, calls } = setUp({ state: 'completing' });
    const r = await refusal(leave.cancel('t1', 'u1', 'e1'));
    expect(r).toMatchObject({ error: 'event_already_ended', message: expect.stringContaining('being completed') });
    expect(calls).toEqual([]);
  });

  it('answers a status changed meanwhile with the table refusal naming the new status', async () => {
    const { leave, calls } = setUp({ changed: false, statusAfter: ParticipantStatus.CANCELLED });
    const r = await refusal(leave.drop('t1', 'e1', 'u1', null));
    expect(r).toMatchObject({ error: 'participant_transition', details: { currentStatus: 'CANCELLED', action: 'drop' } });
    expect(calls).toEqual([`changeStatus ${ParticipantStatus.DROPPED}`]);
  });
});
