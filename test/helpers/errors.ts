/**
 * The error body as the interface defines it, checked from the interface's words rather than from
 * the service's catalogue: `message` is `generic_client_error` for every 400, one of the three 401
 * identifiers for every 401 (failed logins of every kind: GENERIC_UNAUTHORIZED), and the `error`
 * identifier otherwise; `error` is the precise case and `detail` a sentence.
 */
export function interfaceMessage(status: number, error: string): string {
  if (status === 400) return 'generic_client_error';
  if (status === 401) return error === 'SESSION_TOKEN_EXPIRED' || error === 'REFRESH_TOKEN_EXPIRED' ? error : 'GENERIC_UNAUTHORIZED';
  return error;
}

/** Asserts status, code and precise case, and that the body is what a client written to the interface reads. */
export function expectError(res: { status: number; body: Record<string, unknown> }, status: number, code: number, error: string): void {
  expect({ status: res.status, code: res.body.code, error: res.body.error, message: res.body.message }).toEqual({
    status,
    code,
    error,
    message: interfaceMessage(status, error),
  });
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail).not.toBe('');
}
