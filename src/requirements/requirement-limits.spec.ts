import { canonicalJson, compileRequirementSchema, purchaseFingerprint, REQUIREMENT_SCHEMA_MAX_BYTES } from './requirement-rules.js';

describe('requirement schema limits', () => {
  it('refuses a schema past the size limit and one declaring $id (ajv keeps ids across compilations)', () => {
    const big = { type: 'object', description: 'x'.repeat(REQUIREMENT_SCHEMA_MAX_BYTES) };
    expect(() => compileRequirementSchema(big)).toThrow(/exceeds/);
    expect(() => compileRequirementSchema({ type: 'object', $id: 'https://example.com/s' })).toThrow(/\$id/);
    expect(() => compileRequirementSchema({ type: 'object', properties: { a: { type: 'nope' } } })).toThrow(/invalid JSON schema/);
  });

  it('canonical JSON of undefined is null; entries with the same requirement id keep a stable fingerprint', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    const twice = [
      { requirementId: 'R1', data: { a: 1 } },
      { requirementId: 'r1', data: { a: 1 } },
    ];
    expect(purchaseFingerprint('L', twice)).toBe(purchaseFingerprint('l', [...twice].reverse()));
  });
});
