import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../common/auth/request-context.js';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { splitHosts } from './primary-locator.js';

/** A WAL position (`pg_lsn`, "16/B374D848") as a number that orders like it. */
export function parseLsn(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * The primary's WAL positions of the last moments, oldest first, each with the time its query was
 * sent: every write acknowledged before that time lies at or before that position. So a replica
 * that has replayed up to `p` shows every write acknowledged before the newest sample at or
 * before `p`: its lag in time, with the probe's resolution, and exact while the primary is idle.
 */
export class WalTimeline {
  private readonly samples: { at: number; lsn: bigint }[] = [];

  constructor(private readonly keepMs: number) {}

  add(at: number, lsn: bigint): void {
    this.samples.push({ at, lsn });
    // The oldest sample is kept while it is the only one older than the window, so a replica far
    // behind still reads as far behind (-Infinity only before the first sample).
    while (this.samples.length > 2 && this.samples[1].at < at - this.keepMs) this.samples.shift();
  }

  /** The latest time up to which every acknowledged write is at or before `replayed`. */
  caughtUpTo(replayed: bigint): number {
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].lsn <= replayed) return this.samples[i].at;
    return -Infinity;
  }
}

/** What a replica read must show: the writes before its cache's last drop and the reader's own. */
export interface Freshness {
  /** The read cache whose value this read loads (CacheFactory's name). */
  cache?: string;
  /** The player reading: their own acknowledged writes must show (read-your-writes). */
  userId?: string;
}

interface Replica {
  label: string;
  url: string;
  dataSource?: DataSource;
  starting?: Promise<void>;
  /** No new connection before this (a failed start or read). */
  retryAt: number;
  /** Every write acknowledged before this time has been replayed there. */
  caughtUpTo: number;
  /** Its last probe answered, and it is a standby. */
  healthy: boolean;
  reads: number;
  fallbacks: number;
}

/** A replica that could not be connected to is tried again after this. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * Reads that tolerate lag, served by the streaming replicas of DATABASE_REPLICA_URLS when one is
 * fresh enough, by the primary otherwise. A replica serves a read when it has replayed every
 * write acknowledged before (a) REPLICA_MAX_LAG_MS ago, (b) the last drop of the read cache the
 * read fills (so a refill after a write never stores the value from before it, which would then
 * be served for the cache's whole life), and (c) the reader's own last write through this process
 * (read-your-writes; the load balancer keeps a player's requests on one instance, docs/scaling.md).
 * Freshness comes from the WAL positions of the primary and each replica, read every
 * REPLICA_PROBE_MS ({@link WalTimeline}), not from replay timestamps, which stand still while the
 * primary is idle.
 *
 * A failed replica read is run again on the primary, so a replica that stops costs its readers
 * one failed statement each, never an error answer; the replica is skipped until a probe finds it
 * answering again. Without DATABASE_REPLICA_URLS every read goes to the primary and nothing here
 * runs.
 */
@Injectable()
export class ReplicaReads implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReplicaReads.name);
  private readonly replicas: Replica[];
  private readonly timeline: WalTimeline;
  private readonly writers: LRUCache<string, number> | null;
  private probing?: NodeJS.Timeout;
  private probe?: Promise<void>;
  private next = 0;
  private primaryReads = 0;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
    private readonly clock: Clock,
    private readonly caches: CacheFactory,
  ) {
    const urls = config.DATABASE_REPLICA_URLS ? config.DATABASE_REPLICA_URLS.split(',').map((u) => u.trim()) : [];
    this.replicas = urls.map((url) => {
      const h = splitHosts(url).hosts[0];
      return {
        label: h ? `${h.host}:${h.port}` : 'replica',
        url,
        retryAt: 0,
        caughtUpTo: -Infinity,
        healthy: false,
        reads: 0,
        fallbacks: 0,
      };
    });
    this.timeline = new WalTimeline(Math.max(config.REPLICA_MAX_LAG_MS * 4, 10_000));
    // A write older than REPLICA_MAX_LAG_MS is covered by the lag bound: forgotten then.
    this.writers = this.replicas.length ? new LRUCache({ max: 200_000, ttl: config.REPLICA_MAX_LAG_MS }) : null;
  }

  /** Whether any replica is configured. */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.probing = setInterval(() => {
      this.probe ??= this.probeAll().finally(() => (this.probe = undefined));
    }, this.config.REPLICA_PROBE_MS);
    this.probing.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.probing);
    await this.probe;
    for (const r of this.replicas) {
      await r.starting?.catch(() => undefined);
      if (r.dataSource?.isInitialized) await r.dataSource.destroy();
    }
  }

  /**
   * Runs `work` on a fresh enough replica's entity manager, or on the primary (`undefined`: a
   * repository method's own pool). `work` must only read. What it throws as an answer (a domain
   * error, an HTTP error) passes through; anything else from a replica runs `work` on the primary.
   */
  async read<T>(work: (em: EntityManager | undefined) => Promise<T>, freshness: Freshness = {}): Promise<T> {
    const replica = this.enabled ? this.pick(this.freshAfter(freshness)) : undefined;
    if (!replica) {
      this.primaryReads++;
      return work(undefined);
    }
    try {
      const result = await work(replica.dataSource!.manager);
      replica.reads++;
      return result;
    } catch (err) {
      if (err instanceof DomainError || err instanceof HttpException) throw err;
      replica.fallbacks++;
      // Skipped until its next probe answers.
      replica.healthy = false;
      this.logger.warn(`read on replica ${replica.label} failed, read the primary: ${(err as Error).message}`);
      this.primaryReads++;
      return work(undefined);
    }
  }

  /** The player `userId` wrote: their next reads here show it. */
  noteWrite(userId: string): void {
    this.writers?.set(userId, this.clock.nowMs());
  }

  /**
   * Express middleware: a request that changed something for its player (any method but GET, HEAD
   * and OPTIONS, answered below 400) marks them a writer when it is answered.
   */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS')
      res.once('finish', () => {
        const user = req.user as AuthUser | undefined;
        if (res.statusCode < 400 && user?.id) this.noteWrite(user.id);
      });
    next();
  };

  /** Each replica's state, for the readiness details and the metrics. */
  states(): { replica: string; healthy: boolean; lagMs: number | null; reads: number; fallbacks: number }[] {
    const now = this.clock.nowMs();
    return this.replicas.map((r) => ({
      replica: r.label,
      healthy: r.healthy,
      lagMs: Number.isFinite(r.caughtUpTo) ? Math.max(0, now - r.caughtUpTo) : null,
      reads: r.reads,
      fallbacks: r.fallbacks,
    }));
  }

  /** Reads served by the primary since the start (none of them needed to be). */
  get readsOnPrimary(): number {
    return this.primaryReads;
  }

  private freshAfter(f: Freshness): number {
    let after = this.clock.nowMs() - this.config.REPLICA_MAX_LAG_MS;
    if (f.cache) after = Math.max(after, this.caches.lastDropAt(f.cache));
    if (f.userId) after = Math.max(after, this.writers?.get(f.userId) ?? 0);
    return after;
  }

  /** The next replica, in turn, that has replayed everything acknowledged before `after`. */
  private pick(after: number): Replica | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const r = this.replicas[(this.next + i) % n];
      if (r.healthy && r.dataSource?.isInitialized && r.caughtUpTo >= after) {
        this.next = (this.next + i + 1) % n;
        return r;
      }
    }
    return undefined;
  }

  private async probeAll(): Promise<void> {
    const sentAt = this.clock.nowMs();
    try {
      const [row] = await this.primary.query<{ lsn: string }[]>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.timeline.add(sentAt, parseLsn(row.lsn));
    } catch {
      // No primary now (a failover): the replicas keep the freshness they had, and age.
    }
    await Promise.all(this.replicas.map((r) => this.probeReplica(r)));
  }

  private async probeReplica(r: Replica): Promise<void> {
    if (!r.dataSource?.isInitialized) {
      if (!r.starting && this.clock.nowMs() >= r.retryAt) r.starting = this.start(r).finally(() => (r.starting = undefined));
      return;
    }
    try {
      const [row] = await r.dataSource.query<{ standby: boolean; lsn: string | null }[]>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn',
      );
      // Not a standby (promoted, or the primary named by mistake): its data may have parted from the primary's.
      const standby = row.standby && row.lsn !== null;
      if (!standby && r.healthy) this.logger.warn(`replica ${r.label} is not a standby: not read`);
      if (standby) r.caughtUpTo = Math.max(r.caughtUpTo, this.timeline.caughtUpTo(parseLsn(row.lsn!)));
      if (standby && !r.healthy) this.logger.log(`replica ${r.label} answers: read when fresh enough`);
      r.healthy = standby;
    } catch {
      if (r.healthy) this.logger.warn(`replica ${r.label} does not answer: reads go to the primary`);
      r.healthy = false;
    }
  }

  private async start(r: Replica): Promise<void> {
    const poolSize = Math.max(2, Math.ceil(this.config.DB_POOL_SIZE / 2));
    const base = dataSourceOptions(r.url, this.primary.options.entities ?? [], { poolSize });
    const ds = new DataSource({
      ...base,
      extra: {
        ...(base.extra as Record<string, unknown>),
        // A replica that hangs costs a read this long, then the primary answers it.
        connectionTimeoutMillis: 1000,
        statement_timeout: 2000,
        application_name: 'community-gaming-service:replica',
      },
    });
    try {
      await ds.initialize();
      r.dataSource = ds;
    } catch (err) {
      r.retryAt = this.clock.nowMs() + RETRY_AFTER_FAILURE_MS;
      this.logger.warn(`replica ${r.label} cannot be reached, retried in ${RETRY_AFTER_FAILURE_MS} ms: ${(err as Error).message}`);
    }
  }
}
