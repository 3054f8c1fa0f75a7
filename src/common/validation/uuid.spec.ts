import { idOf, refOf } from './uuid.js';

const ID = '0F8FAD5B-D9CB-469F-A165-70867728950E';

describe('refOf: an id or a key, told apart once', () => {
  it('reads a uuid in any case as its stored, lower-case id', () => {
    expect(refOf(ID)).toEqual({ id: ID.toLowerCase() });
    expect(refOf(`  ${ID} `)).toEqual({ id: ID.toLowerCase() });
  });

  it('reads anything else as a lower-case key', () => {
    expect(refOf(' Guild ')).toEqual({ key: 'guild' });
    expect(refOf(`${ID}x`)).toEqual({ key: `${ID.toLowerCase()}x` });
  });

  it('sends no lookup for an empty key or one longer than any slug', () => {
    expect(refOf('   ')).toBeNull();
    expect(refOf('a'.repeat(65))).toBeNull();
    expect(refOf('a'.repeat(64))).toEqual({ key: 'a'.repeat(64) });
    expect(refOf('a'.repeat(80), 80)).toEqual({ key: 'a'.repeat(80) });
  });
});

describe('idOf', () => {
  it('answers the stored id of a uuid and null for anything else, untrimmed', () => {
    expect(idOf(ID)).toBe(ID.toLowerCase());
    expect(idOf(` ${ID}`)).toBeNull();
    expect(idOf('guild')).toBeNull();
    expect(idOf('__proto__')).toBeNull();
  });
});
