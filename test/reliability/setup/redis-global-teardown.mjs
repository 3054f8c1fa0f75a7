import databaseTeardown from '../../setup/global-teardown.mjs';

export default async function redisGlobalTeardown() {
  globalThis.__CGS_REDIS__?.kill('SIGKILL');
  await databaseTeardown();
}
