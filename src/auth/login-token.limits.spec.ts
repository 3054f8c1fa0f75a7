import { DomainError } from '../common/errors/domain-error.js';
import { checkCompactJweHeader, validateLoginClaims } from './login-token.js';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return `${e.definition.error}: ${e.message}`;
    throw e;
  }
  return 'no error';
};

describe('login token limits', () => {
  const now = 1_700_000_000;
  const valid = { _nonce: '0123456789abcdef', subjectId: 'sub-1', handle: 'ada', iat: now, exp: now + 300 };

  it('a header without alg says the alg is missing', () => {
    const jwe = `${b64({ enc: 'A256GCM' })}..aXZpdml2aXZpdml2.Y2lwaGVy.dGFndGFndGFndGFn`;
    expect(errorOf(() => checkCompactJweHeader(jwe))).toBe('login_token_algorithm: The token alg is missing; only "dir" is accepted');
  });

  it('refuses a claim past 8 KiB and a subjectId past 255 characters', () => {
    expect(errorOf(() => validateLoginClaims({ ...valid, handle: 'h'.repeat(8_193) }, now, 30, 'providerB'))).toBe(
      'login_token_claims: The token claim handle is too long',
    );
    expect(errorOf(() => validateLoginClaims({ ...valid, subjectId: 's'.repeat(256) }, now, 30, 'providerB'))).toBe(
      'login_token_claims: The token claim subjectId is longer than 255 characters',
    );
    expect(validateLoginClaims({ ...valid, subjectId: 's'.repeat(255) }, now, 30, 'providerB').subjectId).toHaveLength(255);
  });
});
