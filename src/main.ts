import cluster from 'node:cluster';
import { loadConfig, tracingEnabled } from './config/app-config.js';

/**
 * `npm start`. One process serves everything (WEB_CONCURRENCY=1, the default); with more, this
 * process becomes the cluster primary (src/cluster/cluster-primary.ts) and each worker runs
 * `bootstrap`. The application is imported only where it runs, so the primary stays small, and
 * only after OpenTelemetry's hooks are in place when tracing is on (src/observability/tracing.ts).
 */
async function start(): Promise<void> {
  const config = loadConfig();
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) {
    const { runClusterPrimary } = await import('./cluster/cluster-primary.js');
    return runClusterPrimary(config);
  }
  if (cluster.isWorker && config.METRICS_TOKEN) (await import('./observability/cluster-metrics.js')).answerClusterCollections();
  if (tracingEnabled(config)) {
    const { startTracing } = await import('./observability/tracing.js');
    await startTracing(config);
  }
  const { bootstrap } = await import('./bootstrap.js');
  return bootstrap();
}

start().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
