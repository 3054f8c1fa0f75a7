import type { ArgumentsHost } from '@nestjs/common';
import { BadRequestException, HttpException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

/** What the filter answers for `exception` (headersSent: a response already under way). */
function respond(exception: unknown, headersSent = false): { status: number; body: Record<string, unknown> } {
  const out = { status: 0, body: {} as Record<string, unknown> };
  const res = {
    headersSent,
    setHeader: () => undefined,
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
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ method: 'GET', originalUrl: '/v1/x?y=1' }) }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return out;
}

describe('AllExceptionsFilter: HTTP exceptions and body-parser failures', () => {
  it('an unlisted status keeps its class: a 4xx is generic_client_error, a 5xx internal_error without internals', () => {
    expect(respond(new HttpException('teapot', 418))).toMatchObject({
      status: 400,
      body: { error: 'generic_client_error', detail: 'teapot' },
    });
    const gateway = respond(new HttpException('upstream secret', 502));
    expect(gateway).toMatchObject({ status: 500, body: { error: 'internal_error' } });
    expect(JSON.stringify(gateway.body)).not.toContain('secret');
    // A readiness probe that failed names its checks; without any, the definition speaks.
    expect(respond(new ServiceUnavailableException({ status: 'error', error: { database: { status: 'down' } } })).body.detail).toBe(
      'Not ready: database down',
    );
    expect(respond(new ServiceUnavailableException()).body.error).toBe('service_unavailable');
    expect(respond(new NotFoundException('Cannot GET /v1/x')).body.detail).toBe('No route GET /v1/x');
  });

  it('unparsable JSON given as the cause of a 400 is invalid_json; a validation message list is joined', () => {
    const parse = respond(new BadRequestException('bad', { cause: new SyntaxError('Unexpected token') }));
    expect(parse.body).toMatchObject({ error: 'invalid_json', detail: 'The request body is not valid JSON' });
    expect(respond(new BadRequestException(['a is wrong', 'b is wrong'])).body.detail).toBe('a is wrong; b is wrong');
  });

  it.each([
    ['encoding.unsupported', 415, 'Unsupported body encoding'],
    ['charset.unsupported', 415, 'Unsupported body encoding'],
    ['entity.verify.failed', 403, undefined],
    ['request.aborted', 400, undefined],
  ])('a body-parser %s error (status %s) keeps its status and says why', (type, status, detail) => {
    const r = respond(Object.assign(new Error(type), { type, status, statusCode: status }));
    expect(r.status).toBe(status);
    if (detail) expect(r.body.detail).toBe(detail);
    else expect(typeof r.body.detail).toBe('string');
  });

  it('a body-parser error as the cause of an HTTP exception is described by its type', () => {
    const cause = Object.assign(new Error('too big'), { type: 'entity.too.large', limit: 1024, status: 413 });
    expect(respond(new HttpException('too big', 413, { cause })).body.detail).toBe('The request body exceeds the limit of 1024 bytes');
  });

  it('database failures known by the driver error alone: a timeout is 503 database_timeout, an outage 503, odd values 500', () => {
    const driver = (d: Record<string, unknown>) => Object.assign(new Error('query failed'), { driverError: d });
    expect(respond(driver({ code: '57014' })).body.error).toBe('database_timeout');
    expect(respond(driver({ message: 'Query read timeout' })).body.error).toBe('database_timeout');
    expect(respond(Object.assign(new Error('Query read timeout'), {})).body.error).toBe('database_timeout');
    expect(respond(driver({ code: '08006' })).body.error).toBe('service_unavailable');
    expect(respond(driver({ code: '40001' })).body.error).toBe('write_conflict');
    expect(respond(driver({ code: '22P05' })).status).toBe(400);
    for (const odd of [null, 'a string', 42, {}]) expect(respond(odd).status).toBe(500);
  });

  it('writes nothing once the response has started', () => {
    expect(respond(new Error('late'), true).status).toBe(0);
  });
});
