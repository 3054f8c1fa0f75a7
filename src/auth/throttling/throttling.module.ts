import { TenantsModule } from '../../tenants/tenants.module.js';
import { Module } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { redisTarget } from '../../common/redis/new-redis.js';
import { LoginRateLimiter } from './login-rate-limiter.service.js';
import { LoginThrottlerGuard, RetryAfterInterceptor } from './login-throttler.guard.js';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from './rate-limit-store.js';

/**
 * Rate limiting of logins and registration (`@LoginRateLimit()`), not a global guard. Counters in
 * memory, or in Redis when REDIS_URL (or REDIS_CLUSTER_NODES) is set so the limits hold across instances (in memory again
 * while Redis is away).
 */
@Module({
  imports: [TenantsModule],
  providers: [
    {
      provide: RateLimitStore,
      inject: [AppConfig, Clock],
      useFactory: (config: AppConfig, clock: Clock) => {
        const redis = redisTarget(config);
        return redis
          ? new RedisRateLimitStore(redis, new MemoryRateLimitStore(clock), config.REDIS_COMMAND_TIMEOUT_MS)
          : new MemoryRateLimitStore(clock);
      },
    },
    LoginRateLimiter,
    LoginThrottlerGuard,
    RetryAfterInterceptor,
  ],
  // The store also counts other modules' limits (quest claims), in Redis when it is set.
  exports: [LoginRateLimiter, LoginThrottlerGuard, RetryAfterInterceptor, RateLimitStore],
})
export class ThrottlingModule {}
