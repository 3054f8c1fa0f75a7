import { Global, Module } from '@nestjs/common';
import { CacheFactory } from './cache/cache-factory.js';
import { Clock } from './clock/clock.js';
import { DomainEvents } from './events/domain-events.js';
import { UnknownPathFallback } from './errors/unknown-path.fallback.js';
import { RouteIndex } from './http/route-index.js';
import { Draining } from './lifecycle/draining.js';

/** Cross-cutting providers every module may use: the clock, read caches, domain events, the drain at shutdown. */
@Global()
@Module({
  providers: [Clock, UnknownPathFallback, RouteIndex, CacheFactory, DomainEvents, Draining],
  exports: [Clock, CacheFactory, DomainEvents, Draining],
})
export class CommonModule {}
