import { auditBody, MAX_BODY_CHARS, outcomeOf, REDACTED, storableEntry } from './redact.js';

describe('audit log body', () => {
  it('redacts secret-named fields at any depth and keeps the rest', () => {
    expect(
      auditBody({
        name: 'Acme',
        apiKey: 'cgs_key_x',
        sharedSecret: 'abc',
        nested: { password: 'p', refreshToken: 't', webhookKey: 'k', monkeys: 3, idempotencyKey: 'grant-1' },
        list: [{ secret: 's', url: 'https://x' }],
      }),
    ).toEqual({
      name: 'Acme',
      apiKey: REDACTED,
      sharedSecret: REDACTED,
      nested: { password: REDACTED, refreshToken: REDACTED, webhookKey: REDACTED, monkeys: 3, idempotencyKey: 'grant-1' },
      list: [{ secret: REDACTED, url: 'https://x' }],
    });
  });

  it('is null for no body and truncates a large one', () => {
    expect(auditBody(undefined)).toBeNull();
    expect(auditBody({})).toBeNull();
    const big = auditBody({ description: 'x'.repeat(20_000) }) as { truncated: boolean; preview: string };
    expect(big.truncated).toBe(true);
    expect(big.preview).toHaveLength(MAX_BODY_CHARS);
  });

  it('replaces lone surrogates, which jsonb refuses, in values, keys and a cut preview', () => {
    expect(auditBody({ name: 'a\ud800b', ['k\udc00']: ['\ud83d'], ok: '😀' })).toEqual({
      name: 'a\ufffdb',
      ['k\ufffd']: ['\ufffd'],
      ok: '😀',
    });
    const cut = auditBody({ d: 'x'.repeat(MAX_BODY_CHARS - 7) + '😀'.repeat(10) }) as { preview: string };
    expect(cut.preview).toHaveLength(MAX_BODY_CHARS);
    expect(cut.preview.endsWith('\ufffd')).toBe(true);
  });

  it('replaces NUL, which PostgreSQL keeps in no text, in the body and in every text field of an entry', () => {
    expect(auditBody({ ['k\u0000']: ['a\u0000b'] })).toEqual({ ['k\ufffd']: ['a\ufffdb'] });
    const entry = {
      tenantId: '7d0c5f4e-0000-4000-8000-000000000001',
      actor: 'api-key:0123456789ab',
      method: 'PATCH',
      route: '/v1/admin/communities/:communityId',
      target: { ['c\u0000']: 'a\u0000b\ud800' },
      body: null,
      statusCode: 400,
      outcome: 'x\u0000',
      aborted: false,
      createdAt: new Date(0),
    };
    expect(storableEntry(entry)).toEqual({ ...entry, target: { ['c\ufffd']: 'a\ufffdb\ufffd' }, outcome: 'x\ufffd' });
  });

  it("takes the response's id, or a nested resource's", () => {
    expect(outcomeOf({ id: 'a', name: 'x' })).toBe('a');
    expect(outcomeOf({ event: { id: 'b' }, completedNow: true })).toBe('b');
    expect(outcomeOf({ entryId: 'e', userId: 'u' })).toBe('e');
    expect(outcomeOf([{ id: 'c' }])).toBeNull();
    expect(outcomeOf(undefined)).toBeNull();
  });
});
