import cluster from 'node:cluster';
import { loadConfig } from './config/app-config.js';

/**
 * `npm start`. One process serves everything (WEB_CONCURRENCY=1, the default); with more, this
 * process becomes the cluster primary (src/cluster/cluster-primary.ts) and each worker runs
 * `bootstrap`. The application is imported only where it runs, so the primary stays small.
 */
async function start(): Promise<void> {
  if (cluster.isPrimary) {
    const config = loadConfig();
    if (config.WEB_CONCURRENCY > 1) {
      const { runClusterPrimary } = await import('./cluster/cluster-primary.js');
      return runClusterPrimary(config);
    }
  }
  const { bootstrap } = await import('./bootstrap.js');
  return bootstrap();
}

start().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
