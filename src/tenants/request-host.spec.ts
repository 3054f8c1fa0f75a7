import { requestHostKey } from './domain-name.js';

describe('requestHostKey with names outside latin1', () => {
  it('a host already decoded past latin1 (a proxy that passed Unicode on) is normalised as it is', () => {
    expect(requestHostKey('пример.example')).toBe('xn--e1afmkfd.example');
    // The same name as raw UTF-8 bytes read as latin1, as Node reads a Host header.
    expect(requestHostKey(Buffer.from('пример.example', 'utf8').toString('latin1'))).toBe('xn--e1afmkfd.example');
    expect(requestHostKey('bad_name')).toBeUndefined();
  });
});
