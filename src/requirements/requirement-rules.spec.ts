import { canonicalJson, compileRequirementSchema, purchaseFingerprint } from './requirement-rules.js';

const address = {
  type: 'object',
  required: ['addressLine1', 'country'],
  additionalProperties: false,
  properties: { addressLine1: { type: 'string', minLength: 1, maxLength: 200 }, country: { type: 'string', minLength: 2, maxLength: 64 } },
};

describe('requirement schemas', () => {
  it('accepts data matching the schema', () => {
    expect(compileRequirementSchema(address).validate({ addressLine1: '1 Main St', country: 'FR' })).toEqual([]);
  });

  it('says every reason data fails, with the path', () => {
    const reasons = compileRequirementSchema(address).validate({ addressLine1: '', extra: 1 });
    expect(reasons).toEqual(
      expect.arrayContaining([
        'data must have property "country"',
        'data must not have property "extra"',
        'data.addressLine1 must NOT have fewer than 1 characters',
      ]),
    );
  });

  it('checks formats such as email', () => {
    const v = compileRequirementSchema({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } });
    expect(v.validate({ email: 'a@example.com' })).toEqual([]);
    expect(v.validate({ email: 'not-an-email' })).toEqual(['data.email must match format "email"']);
  });

  it('refuses schemas that are not objects, not for objects, or invalid', () => {
    expect(() => compileRequirementSchema([])).toThrow('schema must be a JSON object');
    expect(() => compileRequirementSchema({ type: 'string' })).toThrow('type "object"');
    expect(() => compileRequirementSchema({ type: 'object', properties: { a: { type: 'nope' } } })).toThrow('invalid JSON schema');
    expect(() => compileRequirementSchema({ type: 'object', unknownKeyword: 1 })).toThrow('invalid JSON schema');
  });
});

describe('purchase fingerprints', () => {
  const id = '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10';
  it('ignore key order, entry order and an absent shouldSave=false', () => {
    const a = purchaseFingerprint('L1', [
      { requirementId: id, shouldSave: false, data: { a: 1, b: { c: 2, d: 3 } } },
      { requirementId: 'ffff', data: {} },
    ]);
    const b = purchaseFingerprint('l1', [
      { requirementId: 'FFFF', shouldSave: false, data: {} },
      { requirementId: id, data: { b: { d: 3, c: 2 }, a: 1 } },
    ]);
    expect(a).toBe(b);
  });

  it('differ for another listing, other data or another shouldSave', () => {
    const base = purchaseFingerprint('L1', [{ requirementId: id, data: { a: 1 } }]);
    expect(purchaseFingerprint('L2', [{ requirementId: id, data: { a: 1 } }])).not.toBe(base);
    expect(purchaseFingerprint('L1', [{ requirementId: id, data: { a: 2 } }])).not.toBe(base);
    expect(purchaseFingerprint('L1', [{ requirementId: id, shouldSave: true, data: { a: 1 } }])).not.toBe(base);
    expect(purchaseFingerprint('L1', [])).not.toBe(base);
  });

  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: [{ z: 1, y: 2 }], a: null })).toBe('{"a":null,"b":[{"y":2,"z":1}]}');
  });
});
