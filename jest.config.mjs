import { availableParallelism } from 'node:os';

// ESM project: ts-jest transpiles each file on its own (isolatedModules, no type check: `npm test`
// type-checks with the build first), `.js` import suffixes map back to the `.ts` sources.
const transform = { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }] };
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
  testEnvironment: 'node',
  // Two lanes when there are several workers: one heavy file (reliability) at a time next to the rest.
  runner: '<rootDir>/test/setup/lane-runner.mjs',
};

export default {
  testTimeout: 60_000,
  // `npm run test:coverage`: what the in-process tiers reach of src/ (the reliability suite runs the
  // service as child processes, which this does not instrument).
  coverageProvider: 'v8',
  collectCoverageFrom: ['src/**/*.ts', '!src/**/*.spec.ts'],
  coverageReporters: ['text-summary', 'json-summary'],
  // At least two: jest's default (one less than the cores) is one on a 2-core machine, which runs
  // everything in band and leaves a core idle. test/setup/lane-runner.mjs keeps the heavy files
  // (the reliability suite) one at a time on one of them.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // Under --experimental-vm-modules each test file's module graph stays in its worker; with the
  // app's module count a worker ran out of heap mid-run. A worker above this after a file is
  // replaced by a fresh one.
  workerIdleMemoryLimit: '1536MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // The module boundaries the lint enforces, tried on planted files (no database).
    { ...common, displayName: 'architecture', testMatch: ['<rootDir>/test/architecture/**/*.spec.ts'] },
    // The published contract: lint and conformance of openapi.json (no database).
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // e2e tests of the parts that need Redis (test/helpers/redis-server.ts starts a redis-server
    // of their own): not in `npm test`, which must pass on a machine without Redis; run by
    // `npm run test:redis`, which CI runs.
    {
      ...common,
      displayName: 'e2e-redis',
      testMatch: ['<rootDir>/test/**/*.redis-e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // e2e tests of the NATS JetStream sink (test/helpers/nats-server.ts starts a nats-server of
    // their own): not in `npm test`, which must pass on a machine without NATS; run by
    // `npm run test:nats`, which CI runs.
    {
      ...common,
      displayName: 'e2e-nats',
      testMatch: ['<rootDir>/test/**/*.nats-e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // Service-level tests: the module under test with the infrastructure modules, on the real
    // database (test/medium/harness.ts), no HTTP.
    {
      ...common,
      displayName: 'medium',
      testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // Real app processes (test/helpers/processes.ts): several instances, crashes, outages, fuzzing,
    // attacks. `npm run test:reliability` runs the short variants, `npm run test:reliability:long` the long ones (CI).
    {
      ...common,
      displayName: 'reliability',
      testMatch: ['<rootDir>/test/reliability/**/*.rel-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // The parts that need Redis or take minutes (mint leases): only `npm run test:reliability:long`,
    // which fails when there is no Redis.
    {
      ...common,
      displayName: 'reliability-long',
      testMatch: ['<rootDir>/test/reliability/**/*.redis-spec.ts', '<rootDir>/test/reliability/**/*.long-spec.ts'],
      globalSetup: '<rootDir>/test/reliability/setup/redis-global-setup.mjs',
      globalTeardown: '<rootDir>/test/reliability/setup/redis-global-teardown.mjs',
    },
    // The high-availability topology on loopback (scripts/topology.mjs: pg_auto_failover, installed
    // when missing): not in `npm test` (a fresh machine has none of it); `npm run test:topology`, which CI runs.
    {
      ...common,
      displayName: 'topology',
      testMatch: ['<rootDir>/test/topology/**/*.topology-spec.ts'],
    },
    // The C# client compiled by Mono's compiler and its program run against the service: not in
    // `npm test` (Mono is not on a fresh machine); `npm run test:csharp`, which CI runs.
    {
      ...common,
      displayName: 'csharp',
      testMatch: ['<rootDir>/test/csharp/**/*.csharp-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
  ],
};
