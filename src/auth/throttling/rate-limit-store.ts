import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { upTo } from '../../common/cache/up-to.js';
import { newRedis, type RedisClient, type RedisTarget } from '../../common/redis/new-redis.js';
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
  /** Takes back one hit of `key` (an attempt that turned out to be no failure); a block it caused stays. */
  abstract refund(key: string): Promise<void>;
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

  async refund(key: string): Promise<void> {
    const e = this.entries.get(key);
    if (e && e.hits > 0 && e.windowEnd > this.clock.nowMs()) e.hits--;
  }

  /** The block of `key`, when one is in force here (a block set while Redis was away outlives the outage). */
  blocked(key: string): RateLimitRecord | undefined {
    const now = this.clock.nowMs();
    const e = this.entries.peek(key);
    if (!e || e.blockedUntil <= now) return undefined;
    return { totalHits: e.hits, timeToExpire: secs(e.windowEnd - now), isBlocked: true, timeToBlockExpire: secs(e.blockedUntil - now) };
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

/**
 * The Redis keys of one counter: the count and its block. The hash tag `{key}` puts both in one
 * slot, which a script touching both needs on a Redis Cluster (CROSSSLOT otherwise): whatever
 * `key` holds, the tag is the same text up to the first `}` in both (keys start with their kind,
 * `ip:`, `acct:`..., never with `}`, which would make the tag empty).
 */
const counterKeys = (key: string) => [`{${key}}`, `{${key}}:blocked`] as const;

/** One hit taken back, never below zero, never creating the key. */
const REFUND = `
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
if hits > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/** After a Redis command failed or timed out, the next this long are counted in memory without asking Redis. */
const REDIS_REST_MS = 1_000;

/**
 * Several instances: counters in Redis (REDIS_URL or REDIS_CLUSTER_NODES), so the limits hold across instances.
 *
 * Redis is optional at run time as well. A command waits at most REDIS_COMMAND_TIMEOUT_MS and is
 * never queued while Redis is away; then, and for REDIS_REST_MS after a failure, the counters
 * are this process's (`MemoryRateLimitStore`): the limits hold per instance (N instances allow N
 * times a limit) until Redis answers again, and a block made meanwhile is kept until it ends.
 * Known login addresses are written to both, so an owner's own address stays known here.
 */
export class RedisRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly logger = new Logger(RedisRateLimitStore.name);
  readonly redis: RedisClient;
  private restUntil = 0;
  private lastWarning = 0;

  constructor(
    target: RedisTarget,
    private readonly local: MemoryRateLimitStore,
    commandTimeoutMs: number,
  ) {
    super();
    this.redis = newRedis(target, {
      keyPrefix: 'cgs:rl:',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: Math.max(1_000, commandTimeoutMs),
    });
    this.redis.on('error', (err: Error) => this.warn(err));
  }

  /** Whether the counters are in Redis now (false while Redis is away or resting after a failure). */
  get shared(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.restUntil;
  }

  async increment(key: string, ttlMs: number, limit: number, blockDurationMs: number): Promise<RateLimitRecord> {
    const local = this.local.blocked(key);
    if (local) return local;
    return this.either(
      async () => {
        const [hits, ttl, blocked, blockTtl] = (await this.redis.eval(
          SCRIPT,
          2,
          ...counterKeys(key),
          ttlMs,
          limit,
          blockDurationMs,
        )) as number[];
        return {
          totalHits: hits,
          timeToExpire: secs(ttl),
          isBlocked: blocked === 1,
          timeToBlockExpire: blocked === 1 ? secs(blockTtl) : 0,
        };
      },
      () => this.local.increment(key, ttlMs, limit, blockDurationMs),
    );
  }

  async refund(key: string): Promise<void> {
    await this.either(
      async () => {
        await this.redis.eval(REFUND, 1, counterKeys(key)[0]);
      },
      () => this.local.refund(key),
    );
  }

  /** A mark is one key, untagged (no script touches it with another): marks made before the counters' tags still count. */
  async remember(key: string, ttlMs: number): Promise<void> {
    await this.local.remember(key, ttlMs);
    await this.either(
      async () => {
        await this.redis.set(key, '1', 'PX', ttlMs);
      },
      async () => undefined,
    );
  }

  async has(key: string): Promise<boolean> {
    if (await this.local.has(key)) return true;
    return this.either(
      async () => (await this.redis.exists(key)) === 1,
      async () => false,
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Redis's answer, or, when Redis is away, slow or resting, this process's. */
  private async either<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (!this.shared) return local();
    try {
      return await shared();
    } catch (err) {
      this.restUntil = Date.now() + REDIS_REST_MS;
      this.warn(err as Error);
      return local();
    }
  }

  /** At most one line every 10 s: an outage would otherwise log every login. */
  private warn(err: Error): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn(`redis: ${err.message}; login rate limits are counted in this process until Redis answers`);
  }
}
