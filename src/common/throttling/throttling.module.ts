import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { LoginRateLimiter } from './login-rate-limiter.service.js';
import { LoginThrottlerGuard } from './login-throttler.guard.js';
import { loginRateLimits } from './login-rate-limits.js';

export const IP_THROTTLER = 'login-ip';

/**
 * Rate limiting of logins and registration (`@LoginRateLimit()`), not a global guard. Counters
 * live in memory, or in Redis when REDIS_URL is set so that the limits hold across instances.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const limits = loginRateLimits(config);
        return {
          throttlers: [{ name: IP_THROTTLER, ttl: limits.windowMs, limit: limits.perIp, blockDuration: limits.windowMs }],
          storage: config.REDIS_URL ? new ThrottlerStorageRedisService(config.REDIS_URL, { keyPrefix: 'cgs:throttle:', maxRetriesPerRequest: 2 }) : undefined,
        };
      },
    }),
  ],
  providers: [LoginRateLimiter, LoginThrottlerGuard],
  exports: [LoginRateLimiter, LoginThrottlerGuard],
})
export class ThrottlingModule {}
