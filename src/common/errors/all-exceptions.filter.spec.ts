import type { ArgumentsHost } from '@nestjs/common';
import { QueryFailedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

function respond(exception: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const out = { status: 0, body: {} as Record<string, unknown>, headers: {} as Record<string, string> };
  const res = {
    headersSent: false,
    setHeader: (k: string, v: string) => {
      out.headers[k] = v;
    },
    status: (s: number) => {
      out.status = s;
      return res;
    },
    json: (b: Record<string, unknown>) => {
      out.body = b;
      return res;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ method: 'POST', originalUrl: '/v1/x', id: 'req-1' }) }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return out;
}

describe('AllExceptionsFilter: database outages are 503, never 500', () => {
  it('maps a connection refused / terminated error to 503 service_unavailable with Retry-After', () => {
    const refused = respond(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 10503, error: 'service_unavailable' });
    expect(refused.headers['Retry-After']).toBe('1');
    expect(respond(new Error('Connection terminated unexpectedly')).status).toBe(503);
  });

  it('maps a write refused as read-only (25006: a primary demoted by a failover) to 503 with Retry-After', () => {
    const demoted = respond(Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }));
    expect([demoted.status, demoted.headers['Retry-After']]).toEqual([503, '1']);
    expect(demoted.body).toMatchObject({ code: 10503, error: 'service_unavailable' });
  });

  // Regression (reliability suite, database outage): a transaction whose connection died when
  // PostgreSQL stopped answered 500 on its next query.
  it('maps TypeORM\'s "query runner already released" (the connection died mid-transaction) to 503', () => {
    const r = respond(new QueryRunnerProviderAlreadyReleasedError());
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 10503, error: 'service_unavailable' });
  });

  // Regression (reliability fuzzer): a NUL byte PostgreSQL cannot store was a 500.
  it("maps PostgreSQL's invalid byte sequence (22021) to 400", () => {
    const r = respond(Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10002 });
  });

  it("maps PostgreSQL's datetime field overflow (22008, a date it cannot store) to 400", () => {
    const overflow = new QueryFailedError('INSERT ...', [], Object.assign(new Error('timestamp out of range'), { code: '22008' }));
    const r = respond(overflow);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 10002,
      message: 'generic_client_error',
      error: 'generic_client_error',
      detail: 'A date or time is outside the range that can be stored',
    });
  });

  it('maps an invalid date reaching PostgreSQL (22007, "Invalid Date") to 400 too', () => {
    const invalid = new QueryFailedError(
      'INSERT ...',
      [],
      Object.assign(new Error('invalid input syntax for type timestamp'), { code: '22007' }),
    );
    const r = respond(invalid);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10002, message: 'generic_client_error' });
  });

  it('keeps other errors a 500 that hides the details', () => {
    const r = respond(new Error('secret internals'));
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain('secret internals');
  });
});

describe('AllExceptionsFilter: lost races are a retryable 409, never 500', () => {
  it.each([
    ['deadlock', '40P01'],
    ['serialization failure', '40001'],
  ])('maps a %s to 409 write_conflict', (_name, code) => {
    const r = respond(Object.assign(new Error('deadlock detected'), { code }));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 10010, error: 'write_conflict' });
    expect(JSON.stringify(r.body)).not.toContain('deadlock detected');
  });
});

describe('AllExceptionsFilter: a connection lost inside a transaction is 503', () => {
  it.each([
    ['a closed pg client', new Error('Client was closed and is not queryable')],
    [
      'a transaction whose connection died before COMMIT',
      Object.assign(new Error('Transaction is not started yet'), { name: 'TransactionNotStartedError' }),
    ],
  ])('maps %s to 503 service_unavailable', (_name, err) => {
    const r = respond(err);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 10503, error: 'service_unavailable' });
  });
});

// Regression (issue 15.6): a purchase waiting on a listing row held by another session answered 500
// `canceling statement due to statement timeout` (57014).
describe('AllExceptionsFilter: database timeouts are a retryable 503, never 500', () => {
  const pgError = (message: string, code: string) => Object.assign(new Error(message), { code });
  it.each([
    [
      'a lock wait past lock_timeout (55P03)',
      new QueryFailedError('UPDATE store_listings SET sold = sold + 1', [], pgError('canceling statement due to lock timeout', '55P03')),
    ],
    [
      'a statement past statement_timeout (57014)',
      new QueryFailedError(
        'UPDATE store_listings SET sold = sold + 1',
        [],
        pgError('canceling statement due to statement timeout', '57014'),
      ),
    ],
    ['a pg error outside TypeORM (57014)', pgError('canceling statement due to statement timeout', '57014')],
    ["the client's read timeout", new Error('Query read timeout')],
  ])('maps %s to 503 database_timeout with Retry-After', (_name, err) => {
    const r = respond(err);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 10504, error: 'database_timeout' });
    expect(r.headers['Retry-After']).toBe('1');
    expect(JSON.stringify(r.body)).not.toContain('canceling statement');
  });
});
