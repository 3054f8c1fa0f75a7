import { Global, Module } from '@nestjs/common';
import { CacheFactory } from './cache/cache-factory.js';
import { Clock } from './clock/clock.js';
import { DomainEvents } from './events/domain-events.js';
import { UnknownPathFallback } from './errors/unknown-path.fallback.js';
import { RouteIndex } from './http/route-index.js';

/** Cross-cutting providers every module may use: the clock, read caches, domain events. */
@Global()
@Module({
  providers: [Clock, UnknownPathFallback, RouteIndex, CacheFactory, DomainEvents],
  exports: [Clock, CacheFactory, DomainEvents],
})
export class CommonModule {}
