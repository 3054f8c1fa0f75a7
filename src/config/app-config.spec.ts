import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loginRateLimits } from '../common/throttling/login-rate-limits.js';
import { loadConfig, tracingEnabled, trustProxy } from './app-config.js';

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

// Made for each run: a secret written in the repository would be a published one.
const GOOD = { SESSION_SECRET: randomBytes(24).toString('base64url'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
const production = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://h/db', ...GOOD, ...env });

describe('production configuration', () => {
  it('requires the keys and a database server', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/);
    expect(() => production()).not.toThrow();
  });

  it.each([
    [
      'the SESSION_SECRET of docker/compose.yml',
      { SESSION_SECRET: 'change-me-to-a-long-random-string-of-64-chars-0123456789abcdef' },
      /SESSION_SECRET is a published value/,
    ],
    ['the ENCRYPTION_KEY of docker/compose.yml', { ENCRYPTION_KEY: '0'.repeat(64) }, /ENCRYPTION_KEY/],
    [
      'the secrets of the test helpers',
      { SESSION_SECRET: `reliability-session-secret-${'x'.repeat(32)}` },
      /SESSION_SECRET is a published value/,
    ],
    ['one repeated character', { SESSION_SECRET: 'x'.repeat(48) }, /SESSION_SECRET is one character repeated/],
    ['a repeated pattern', { ENCRYPTION_KEY: '5e'.repeat(32) }, /ENCRYPTION_KEY repeats/],
    ['a longer repeated pattern', { SESSION_SECRET: 'Secret-2024!'.repeat(3) }, /SESSION_SECRET repeats/],
    ['too few distinct characters', { SESSION_SECRET: 'abababbbaaabbabaabababbbaabbbaba' }, /SESSION_SECRET has too little entropy/],
    ['a low-entropy key', { ENCRYPTION_KEY: `${'0'.repeat(56)}1234abcd` }, /ENCRYPTION_KEY has too little entropy/],
    ['a short secret', { SESSION_SECRET: randomBytes(8).toString('hex') }, /SESSION_SECRET must have at least 32 characters/],
  ])('refuses to start with %s', (_, env, message) => {
    expect(() => production(env)).toThrow(message);
  });

  it('accepts secrets made as the README says (openssl rand -hex 32, base64)', () => {
    for (let i = 0; i < 200; i++) {
      const hex = randomBytes(32).toString('hex');
      expect(() => production({ SESSION_SECRET: hex, ENCRYPTION_KEY: randomBytes(32).toString('hex') })).not.toThrow();
      expect(() => production({ SESSION_SECRET: randomBytes(32).toString('base64') })).not.toThrow();
    }
  });

  it('does not judge the secrets outside production', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '0'.repeat(64) })).not.toThrow();
  });

  it('serves Swagger by default except in production, where SWAGGER_ENABLED=true turns it on', () => {
    expect(loadConfig({}).SWAGGER_ENABLED).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).SWAGGER_ENABLED).toBe(true);
    expect(production().SWAGGER_ENABLED).toBe(false);
    expect(production({ SWAGGER_ENABLED: 'true' }).SWAGGER_ENABLED).toBe(true);
    expect(loadConfig({ SWAGGER_ENABLED: 'false' }).SWAGGER_ENABLED).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default: the socket address is the client', () => {
    expect(trustProxy(loadConfig({}))).toBe(false);
    expect(trustProxy(loadConfig({ TRUST_PROXY: 'false' }))).toBe(false);
  });

  it('takes a hop count, or named ranges, addresses and CIDRs as Express does', () => {
    expect(trustProxy(loadConfig({ TRUST_PROXY: '1' }))).toBe(1);
    expect(trustProxy(loadConfig({ TRUST_PROXY: 'loopback' }))).toEqual(['loopback']);
    expect(trustProxy(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8 ,fd00::/8,192.168.1.7,uniquelocal' }))).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
      'uniquelocal',
    ]);
  });

  it.each(['true', 'everyone', '10.0.0.0/33', '300.1.1.1', 'fd00::/129', '-1', 'loopback,,'])('refuses %s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe('login rate limits', () => {
  it('defaults to a high per-address limit, a per account and address limit, and a much higher per-account ceiling', () => {
    expect(loginRateLimits(loadConfig({}))).toEqual({
      windowMs: 60_000,
      perAddress: 300,
      perAccountAndAddress: 10,
      perAccount: 100,
      knownClientMs: 30 * 24 * 3600 * 1000,
    });
    expect(
      loginRateLimits(loadConfig({ LOGIN_RATE_LIMIT_IP: '50', LOGIN_RATE_LIMIT_ACCOUNT: '5', LOGIN_RATE_LIMIT_ACCOUNT_TOTAL: '40' })),
    ).toMatchObject({ perAddress: 50, perAccountAndAddress: 5, perAccount: 40 });
  });

  it('lets a tenant set its own limits; invalid stored values fall back to the configuration', () => {
    const config = loadConfig({});
    expect(loginRateLimits(config, { perAccount: 1000, perAddress: 2000 })).toMatchObject({
      perAddress: 2000,
      perAccountAndAddress: 10,
      perAccount: 1000,
    });
    expect(loginRateLimits(config, { perAccount: -1, perAddress: 'x' } as never)).toMatchObject({ perAddress: 300, perAccount: 100 });
  });
});

describe('docker/compose.yml', () => {
  it('carries no usable secret: each one must be set in the environment, or compose refuses to start', () => {
    const compose = readFileSync(new URL('../../docker/compose.yml', import.meta.url), 'utf8');
    const names = 'SESSION_SECRET|ENCRYPTION_KEY|METRICS_TOKEN|GF_SECURITY_ADMIN_PASSWORD';
    const lines = compose.split('\n').filter((l) => new RegExp(`^\\s*(${names}):`).test(l));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect(line.trim()).toMatch(/^(\w+): (["'])\$\{(\1|GRAFANA_ADMIN_PASSWORD):\?[^}]+\}\2$/);
  });
});

describe('metrics and tracing settings', () => {
  it('measures nothing and traces nothing unless told', () => {
    const c = loadConfig({});
    expect(c.METRICS_TOKEN).toBeUndefined();
    expect(tracingEnabled(c)).toBe(false);
    expect(tracingEnabled(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(true);
    expect(tracingEnabled(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toBe(true);
  });

  it('refuses a short or blank metrics token, and in production a weak one', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 32 to 512/);
    expect(() => loadConfig({ METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(32) }).METRICS_TOKEN).toHaveLength(32); // fine outside production
    expect(() => production({ METRICS_TOKEN: 'x'.repeat(32) })).toThrow(/METRICS_TOKEN is one character repeated/);
    expect(production({ METRICS_TOKEN: randomBytes(32).toString('hex') }).METRICS_TOKEN).toHaveLength(64);
  });
});
