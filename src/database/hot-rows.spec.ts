import { DomainError } from '../common/errors/domain-error.js';
import { loadConfig } from '../config/app-config.js';
import { HotRows } from './hot-rows.js';

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

describe('HotRows: at most half the pool works on one hot row at once', () => {
  it('runs half the pool at once per row, the rest waits in memory', async () => {
    const rows = new HotRows(config({ DB_POOL_SIZE: '10', DB_LOCK_TIMEOUT_MS: '5000' }));
    let running = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      return 'done';
    };
    const results = await Promise.all([...Array.from({ length: 12 }, () => rows.run('listing:a', work)), rows.run('listing:b', work)]);
    expect(results.every((r) => r === 'done')).toBe(true);
    expect(most).toBe(6); // 5 on listing:a, 1 on listing:b
  });

  it("answers database_timeout when no slot frees within DB_LOCK_TIMEOUT_MS, and passes the work's own errors through", async () => {
    const rows = new HotRows(config({ DB_POOL_SIZE: '2', DB_LOCK_TIMEOUT_MS: '50' }));
    let release!: () => void;
    const held = rows.run('listing:a', () => new Promise<void>((r) => (release = r)));
    const waited = rows.run('listing:a', async () => 'never');
    await expect(waited).rejects.toBeInstanceOf(DomainError);
    await expect(waited).rejects.toMatchObject({ definition: { status: 503, error: 'database_timeout' } });
    release();
    await held;
    await expect(
      rows.run('listing:a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await rows.run('listing:a', async () => 'free again')).toBe('free again');
  });
});
