import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { upTo } from '../../common/cache/up-to.js';
import { newRedis } from '../../common/redis/new-redis.js';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../common/clock/clock.js';

/** The outcome of one counted hit (same shape as @nestjs/throttler's storage record). */
export interface RateLimitRecord {
  totalHits: number;
  /** Seconds until the window resets. */
  timeToExpire: number;
  isBlocked: boolean;
  /** Seconds until the block ends (0 when not blocked). */
  timeToBlockExpire: number;
}

/**
 * Fixed-window counters with a block once the limit is passed. The contract is the
 * `ThrottlerStorage` of @nestjs/throttler (`increment(key, ttlMs, limit, blockMs)`).
 */
export abstract class RateLimitStore {
  abstract increment(key: string, ttlMs: number, limit: number, blockDurationMs: number): Promise<RateLimitRecord>;
  /** Marks `key` for `ttlMs` (an address an account logged in from). */
  abstract remember(key: string, ttlMs: number): Promise<void>;
  /** Whether `key` is marked. */
  abstract has(key: string): Promise<boolean>;
}

const secs = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** One instance: counters in memory, on the injectable clock. */
export class MemoryRateLimitStore extends RateLimitStore {
  /**
   * Bounded like the marks: the keys come from clients (addresses, names), so under a flood of new
   * keys the least recently counted go first, never the one a client keeps hitting.
   */
  private readonly entries = new LRUCache<string, { hits: number; windowEnd: number; blockedUntil: number }>(upTo(200_000));
  /** Bounded: the least recently used marks go first. */
  private readonly marks = new LRUCache<string, number>(upTo(200_000));

  constructor(private readonly clock: Clock) {
    super();
  }

  async remember(key: string, ttlMs: number): Promise<void> {
    this.marks.set(key, this.clock.nowMs() + ttlMs);
  }

  async has(key: string): Promise<boolean> {
    const until = this.marks.get(key);
    return until !== undefined && until > this.clock.nowMs();
  }

  async increment(key: string, ttlMs: number, limit: number, blockDurationMs: number): Promise<RateLimitRecord> {
    const now = this.clock.nowMs();
    let e = this.entries.get(key);
    if (e && e.blockedUntil > now)
      return { totalHits: e.hits, timeToExpire: secs(e.windowEnd - now), isBlocked: true, timeToBlockExpire: secs(e.blockedUntil - now) };
    if (!e || e.windowEnd <= now) {
      e = { hits: 0, windowEnd: now + ttlMs, blockedUntil: 0 };
      this.entries.set(key, e);
    }
    e.hits++;
    if (e.hits > limit) {
      e.blockedUntil = now + blockDurationMs;
      return { totalHits: e.hits, timeToExpire: secs(e.windowEnd - now), isBlocked: true, timeToBlockExpire: secs(blockDurationMs) };
    }
    return { totalHits: e.hits, timeToExpire: secs(e.windowEnd - now), isBlocked: false, timeToBlockExpire: 0 };
  }
}

/** Atomic in Redis: the counter, its window and the block are one script, so every instance shares them. */
const SCRIPT = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1]), 1, blocked} end
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return {hits, ttl, 1, tonumber(ARGV[3])}
end
return {hits, ttl, 0, 0}
`;

/** Several instances: counters in Redis (REDIS_URL). */
export class RedisRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly logger = new Logger(RedisRateLimitStore.name);
  readonly redis: Redis;

  constructor(url: string) {
    super();
    this.redis = newRedis(url, { keyPrefix: 'cgs:rl:', maxRetriesPerRequest: 2, lazyConnect: false });
    this.redis.on('error', (err: Error) => this.logger.warn(`redis: ${err.message}`));
  }

  async increment(key: string, ttlMs: number, limit: number, blockDurationMs: number): Promise<RateLimitRecord> {
    const [hits, ttl, blocked, blockTtl] = (await this.redis.eval(
      SCRIPT,
      2,
      key,
      `${key}:blocked`,
      ttlMs,
      limit,
      blockDurationMs,
    )) as number[];
    return { totalHits: hits, timeToExpire: secs(ttl), isBlocked: blocked === 1, timeToBlockExpire: blocked === 1 ? secs(blockTtl) : 0 };
  }

  async remember(key: string, ttlMs: number): Promise<void> {
    await this.redis.set(key, '1', 'PX', ttlMs);
  }

  async has(key: string): Promise<boolean> {
    return (await this.redis.exists(key)) === 1;
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
