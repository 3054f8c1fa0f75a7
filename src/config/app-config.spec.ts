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
