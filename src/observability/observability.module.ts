import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { Metrics } from './metrics.js';
import { stopTracing } from './tracing-state.js';

/**
 * Metrics (`Metrics`, `GET /metrics`) and the end of tracing. Infrastructure, global like
 * `CommonModule`: a module reports to `Metrics` without importing this one.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics],
  exports: [Metrics],
})
export class ObservabilityModule implements OnApplicationShutdown {
  /** The spans still buffered are sent before the process exits (no-op when tracing is off). */
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}
