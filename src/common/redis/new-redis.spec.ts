import { loadConfig } from '../../config/app-config.js';
import { InvalidRedisNodesError, isCluster, newRedis, parseRedisNodes, redisTarget } from './new-redis.js';

describe('REDIS_CLUSTER_NODES', () => {
  it('parses comma-separated host:port seed nodes (names, IPv4, bracketed IPv6; blanks ignored)', () => {
    expect(parseRedisNodes('redis-0.redis:6379, 10.0.0.7:7001 ,[::1]:7002')).toEqual([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.7', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(parseRedisNodes('r:1')).toEqual([{ host: 'r', port: 1 }]);
  });

  it.each(['', 'redis-0', 'redis-0:', ':6379', 'redis-0:0', 'redis-0:65536', 'redis://redis-0:6379', 'a:1,,b:2', '::1:6379', '-a:1'])(
    'refuses %j',
    (list) => {
      expect(() => parseRedisNodes(list)).toThrow(InvalidRedisNodesError);
      // The configuration refuses the same lists at start-up (its own copy of the grammar).
      if (list !== '') expect(() => loadConfig({ REDIS_CLUSTER_NODES: list })).toThrow(/REDIS_CLUSTER_NODES must be comma-separated/);
    },
  );

  it('is accepted by the configuration, not together with REDIS_URL', () => {
    const c = loadConfig({ REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1:6379' });
    expect(redisTarget(c)).toEqual([
      { host: 'redis-0', port: 6379 },
      { host: 'redis-1', port: 6379 },
    ]);
    expect(() => loadConfig({ REDIS_URL: 'redis://redis:6379', REDIS_CLUSTER_NODES: 'redis-0:6379' })).toThrow(
      /set REDIS_URL or REDIS_CLUSTER_NODES, not both/,
    );
    expect(redisTarget(loadConfig({ REDIS_URL: 'redis://redis:6379' }))).toBe('redis://redis:6379');
    expect(redisTarget(loadConfig({}))).toBeUndefined();
  });

  it('makes a cluster client for a node list and a plain one for a URL, without connecting', async () => {
    const cluster = newRedis([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true, keyPrefix: 'p:', commandTimeout: 50 });
    const single = newRedis('redis://127.0.0.1:1', { lazyConnect: true });
    try {
      expect(isCluster(cluster)).toBe(true);
      expect(isCluster(single)).toBe(false);
      // keyPrefix is the cluster client's own option; the rest go to each node's connection.
      expect(cluster.options).toMatchObject({
        keyPrefix: 'p:',
        lazyConnect: true,
        scaleReads: 'master',
        redisOptions: { commandTimeout: 50 },
      });
      expect(cluster.status).toBe('wait');
    } finally {
      cluster.disconnect();
      single.disconnect();
    }
  });
});
