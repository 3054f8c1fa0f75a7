import { loadConfig, trustProxy } from './app-config.js';
import { parseBlockchains } from './blockchains.config.js';

describe('configuration edges', () => {
  it('an empty variable is as if unset: the default applies, numbers and booleans alike', () => {
    const defaults = loadConfig({});
    const empty = loadConfig({ PORT: '', MIGRATIONS_RUN: '', DB_POOL_SIZE: '' });
    expect(empty.PORT).toBe(defaults.PORT);
    expect(empty.MIGRATIONS_RUN).toBe(defaults.MIGRATIONS_RUN);
    expect(empty.DB_POOL_SIZE).toBe(defaults.DB_POOL_SIZE);
  });

  it('TRUST_PROXY=0 trusts no proxy, like false', () => {
    expect(trustProxy({ TRUST_PROXY: '0' })).toBe(false);
    expect(trustProxy({ TRUST_PROXY: ' 2 ' })).toBe(2);
  });

  it('BLOCKCHAINS: each chain must be an object', () => {
    expect(() => parseBlockchains('{"main": 5}')).toThrow('BLOCKCHAINS.main must be an object');
    expect(() => parseBlockchains('{"main": null}')).toThrow('BLOCKCHAINS.main must be an object');
    expect(() => loadConfig({ BLOCKCHAINS: '{"main": []}' })).toThrow(/BLOCKCHAINS\.main\.rpcUrl/);
  });
});
