import { loadConfig } from './app-config.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SWAGGER_ENABLED).toBe(true);
  });

  it('parses numbers and booleans from strings', () => {
    const c = loadConfig({ PORT: '8080', SWAGGER_ENABLED: 'false', DB_POOL_SIZE: '20' });
    expect(c).toMatchObject({ PORT: 8080, SWAGGER_ENABLED: false, DB_POOL_SIZE: 20 });
  });

  it('refuses invalid values with a readable message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid configuration/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'abc' })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
    expect(() => loadConfig({ READ_CACHE_MS: 'soon' })).toThrow(/READ_CACHE_MS/);
    expect(() => loadConfig({ READ_CACHE_MS: '-1' })).toThrow(/READ_CACHE_MS/);
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: 'short' })).toThrow(/DB_LOCK_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '600000' })).toThrow(/DB_LOCK_TIMEOUT_MS/);
  });

  it('is one process with its start-up tasks unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ WEB_CONCURRENCY: 1, STARTUP_TASKS: true });
    expect(loadConfig({ WEB_CONCURRENCY: '4', STARTUP_TASKS: 'false' })).toMatchObject({ WEB_CONCURRENCY: 4, STARTUP_TASKS: false });
    expect(loadConfig({}).READ_CACHE_MS).toBe(1000);
    expect(loadConfig({}).DB_LOCK_TIMEOUT_MS).toBe(3000);
    expect(loadConfig({ DB_LOCK_TIMEOUT_MS: '0' }).DB_LOCK_TIMEOUT_MS).toBe(0);
    expect(loadConfig({ READ_CACHE_MS: '0' }).READ_CACHE_MS).toBe(0);
  });
});

describe('production configuration', () => {
  it('requires the keys and a database server', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'a'.repeat(64), DATABASE_URL: 'postgres://h/db' }),
    ).not.toThrow();
  });
});
