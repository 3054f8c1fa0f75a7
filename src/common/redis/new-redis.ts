import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';

const require = createRequire(import.meta.url);

/**
 * A Redis client. ioredis is loaded on the first call, so a deployment without `REDIS_URL` never
 * loads it (it is a good part of the idle memory goal, P7 in docs/performance.md).
 */
export function newRedis(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = require('ioredis') as typeof IORedis;
  return new Client(url, options);
}
