import { defineErrors, errorCatalog, GENERIC_CLIENT_ERROR_CODE } from './error-catalog.js';

describe('defineErrors', () => {
  it('gives every 400 the generic code and message, a 401 an interface identifier (GENERIC_UNAUTHORIZED otherwise), other statuses their own', () => {
    const defs = defineErrors({
      spec_bad_thing: { status: 400, description: 'bad' },
      SESSION_TOKEN_EXPIRED: { status: 401, code: 10402, description: 'expired' },
      spec_not_logged_in: { status: 401, code: 99902, description: 'who?' },
      spec_gone: { status: 404, code: 99903, description: 'gone', error: 'spec_gone_away' },
    });
    expect(defs.spec_bad_thing).toMatchObject({
      code: GENERIC_CLIENT_ERROR_CODE,
      message: 'generic_client_error',
      error: 'spec_bad_thing',
    });
    expect(defs.SESSION_TOKEN_EXPIRED.message).toBe('SESSION_TOKEN_EXPIRED');
    expect(defs.spec_not_logged_in.message).toBe('GENERIC_UNAUTHORIZED');
    expect(defs.spec_gone).toMatchObject({ code: 99903, message: 'spec_gone_away', error: 'spec_gone_away' });
    expect(errorCatalog().map((d) => d.error)).toEqual(expect.arrayContaining(['spec_bad_thing', 'spec_gone_away']));
  });

  it('refuses a non-400 without a code, an identifier defined twice differently, and a code used by another error', () => {
    expect(() => defineErrors({ spec_codeless: { status: 409, description: 'x' } })).toThrow(/needs a numeric code/);
    defineErrors({ spec_once: { status: 409, code: 99911, description: 'x' } });
    // The same definition again (a module imported twice) is fine; a different one is not.
    expect(() => defineErrors({ spec_once: { status: 409, code: 99911, description: 'x' } })).not.toThrow();
    expect(() => defineErrors({ spec_once: { status: 409, code: 99912, description: 'x' } })).toThrow(/defined twice/);
    expect(() => defineErrors({ spec_twice: { status: 409, code: 99911, description: 'x' } })).toThrow(/is used by spec_once/);
    // 400s share their code by design.
    expect(() =>
      defineErrors({ spec_bad_a: { status: 400, description: 'a' }, spec_bad_b: { status: 400, description: 'b' } }),
    ).not.toThrow();
  });
});
