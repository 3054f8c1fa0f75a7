import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Cluster, Redis, RedisOptions } from 'ioredis';
import type { AppConfig } from '../../config/app-config.js';

const require = createRequire(import.meta.url);

/** One seed node of a Redis Cluster. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Where Redis is: a `redis://` URL (one server) or the seed nodes of a Redis Cluster. */
export type RedisTarget = string | readonly RedisNode[];

/**
 * Either client. Both have the commands, scripts and pub/sub the stores use; a cluster sends each
 * command to the master of its key's slot (a script's keys must share one slot: hash tags).
 */
export type RedisClient = Redis | Cluster;

/** REDIS_CLUSTER_NODES is not a list of `host:port`. */
export class InvalidRedisNodesError extends Error {
  override readonly name = 'InvalidRedisNodesError';
}

/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/;

/** The nodes of a comma-separated `host:port` list (REDIS_CLUSTER_NODES); blanks around entries are ignored. */
export function parseRedisNodes(list: string): RedisNode[] {
  const entries = list.split(',').map((e) => e.trim());
  return entries.map((entry) => {
    const m = NODE.exec(entry);
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535)
      throw new InvalidRedisNodesError(
        `REDIS_CLUSTER_NODES: "${entry}" is not host:port (comma-separated, e.g. redis-0:6379,redis-1:6379)`,
      );
    return { host: m[1].replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/** Whether Redis is configured, and where: REDIS_URL or REDIS_CLUSTER_NODES (the configuration allows only one). */
export function redisTarget(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>): RedisTarget | undefined {
  if (config.REDIS_CLUSTER_NODES) return parseRedisNodes(config.REDIS_CLUSTER_NODES);
  return config.REDIS_URL || undefined;
}

export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}

/**
 * A Redis client, for one server or a Redis Cluster. ioredis is loaded on the first call, so a
 * deployment without Redis never loads it (it is a good part of the idle memory goal, P7 in
 * docs/performance.md).
 *
 * For a cluster the options are the per-node connection's, but for the ones ioredis takes on the
 * cluster client itself (`keyPrefix`, `enableOfflineQueue`, `lazyConnect`). Reads go to masters only: a replica
 * lags, and the rank store compares what it reads with what it just wrote.
 */
export function newRedis(target: RedisTarget, options: RedisOptions): RedisClient {
  const { Redis: Client, Cluster: ClusterClient } = require('ioredis') as typeof IORedis;
  if (typeof target === 'string') return new Client(target, options);
  const { keyPrefix, enableOfflineQueue, lazyConnect, ...perNode } = options;
  return new ClusterClient(
    target.map((n) => ({ ...n })),
    {
      keyPrefix,
      lazyConnect,
      enableOfflineQueue: enableOfflineQueue ?? true,
      scaleReads: 'master',
      redisOptions: perNode,
    },
  );
}
