import { redactRequestLine } from '../logging/logging.module.js';
import { isSecretName, REDACTED, redactQueryObject, redactQueryString } from './secret-names.js';

describe('credentials in query strings', () => {
  it('replaces the values of secret-named parameters in a request target, keeping the rest', () => {
    expect(redactQueryString('/v1/user/notifications/stream?token=st_abc&lastEventId=5')).toBe(
      `/v1/user/notifications/stream?token=${encodeURIComponent(REDACTED)}&lastEventId=5`,
    );
    for (const name of ['ticket', 'apiKey', 'access_token', 'api_key', 'password', 'sharedSecret', 'refreshToken', 'sig']) {
      const out = redactQueryString(`/x?${name}=hunter2&page=2&${name}=again`);
      expect(out).not.toContain('hunter2');
      expect(out).not.toContain('again');
      expect(out).toContain('page=2');
    }
    expect(redactQueryString('/x?page=2&idempotencyKey=grant-1')).toBe('/x?page=2&idempotencyKey=grant-1');
    expect(redactQueryString('/x')).toBe('/x');
  });

  it('redacts a parsed query at any depth and the request a log line carries', () => {
    expect(redactQueryObject({ filter: { apiKey: 'k', status: ['a'] }, token: ['t1', 't2'], page: '1' })).toEqual({
      filter: { apiKey: REDACTED, status: ['a'] },
      token: REDACTED,
      page: '1',
    });
    const line = redactRequestLine({ url: '/v1/x?access_token=secret-value', query: { access_token: 'secret-value' }, method: 'GET' });
    expect(JSON.stringify(line)).not.toContain('secret-value');
    expect(line.method).toBe('GET');
  });

  it('names secrets as the audit log does', () => {
    expect(['token', 'apiKey', 'clientSecret', 'password', 'webhookKey'].every(isSecretName)).toBe(true);
    expect(['idempotencyKey', 'page', 'status', 'tickets'].some(isSecretName)).toBe(false);
  });
});
