import { timingSafeEqual, hash } from 'node:crypto';
import cluster from 'node:cluster';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { DomainEvents } from '../common/events/domain-events.js';
import { AppConfig } from '../config/app-config.js';
import { ReplicaReads } from '../database/replica-reads.js';
import '../resources/resources.events.js';
import { scrapeThroughPrimary } from './cluster-metrics.js';

/** The login routes, by how the user proves who they are. */
export type LoginMethod =
  'password' | 'register_password' | 'providerA' | 'providerB' | 'providerC' | 'zklogin_providerA' | 'zklogin_providerD' | 'siwe';
/** What happened to an avatar mint job: requested (new or a failed one queued again), sent, minted, to be retried, failed for good. */
export type MintJobState = 'requested' | 'sending' | 'minted' | 'retry' | 'failed';

/** Label of a request that matched no route (unknown paths, and requests refused before routing): one label, not one per URL. */
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The ledger reasons written by the service itself; an operator's own reason (admin grants) is `other`, so the label stays bounded. */
const CREDIT_REASONS = new Set(['grant', 'quest_completion', 'quest_reward', 'event_reward', 'store_purchase']);

type Observer = { observe: (seconds: number) => void };
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * The service's Prometheus metrics (prom-client), and the one place that knows them: modules report
 * what happened through the methods below (or publish a domain event this class listens to) and
 * never import prom-client. Only when METRICS_TOKEN is set is anything measured; otherwise every
 * method returns at once and the request hook is not mounted.
 *
 * - HTTP: one histogram observation per request, labelled by method, route template
 *   (`/v1/community/:communityId`, never the URL: bounded label values; no route: `unmatched`) and status.
 *   Its `_count` is the request count, so there is no second counter on the hot path.
 * - Runtime: prom-client's default metrics (event-loop lag, heap, GC, handles, CPU).
 * - Database pool: read from the pg pool at scrape time (in use, idle, waiting, max).
 * - Domain: logins by method and result, purchases by result, resources credited (XP is the
 *   `global` kind) by reason, avatar mint jobs by state.
 *
 * In a cluster worker, a scrape asks the primary, which collects every worker's registry with
 * prom-client's AggregatorRegistry (src/observability/cluster-metrics.ts): whichever worker answers
 * `/metrics`, the figures are the whole cluster's.
 */
@Injectable()
export class Metrics {
  readonly enabled: boolean;
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly tokenDigest?: Buffer;
  private readonly requests?: Histogram<'method' | 'route' | 'status_code'>;
  private readonly requestObservers = new Map<string, Observer>();
  private readonly logins?: Counter<'method' | 'result'>;
  private readonly purchases?: Counter<'result'>;
  private readonly credited?: Counter<'kind' | 'reason'>;
  private readonly mintJobs?: Counter<'state'>;

  constructor(config: AppConfig, @InjectDataSource() dataSource: DataSource, events: DomainEvents, replicas: ReplicaReads) {
    this.enabled = Boolean(config.METRICS_TOKEN);
    if (!config.METRICS_TOKEN) return;
    this.tokenDigest = digest(config.METRICS_TOKEN);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route template and status code: duration in seconds (_count is the request count)',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const pool = () => (dataSource.driver as unknown as { master?: PgPool }).master;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the database pool, by state (in_use, idle)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const p = pool();
        this.set({ state: 'in_use' }, p ? p.totalCount - p.idleCount : 0);
        this.set({ state: 'idle' }, p?.idleCount ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Requests waiting for a connection of the database pool',
      registers,
      collect() {
        this.set(pool()?.waitingCount ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Size limit of the database pool (DB_POOL_SIZE, per process)',
      registers,
      collect() {
        this.set(pool()?.options?.max ?? config.DB_POOL_SIZE);
      },
    });
    if (replicas.enabled) replicaMetrics(replicas, registers);
    this.logins = new Counter({
      name: 'cgs_logins_total',
      help: 'Login and registration attempts that reached the service, by method and result (success, or the error identifier)',
      labelNames: ['method', 'result'] as const,
      registers,
    });
    this.purchases = new Counter({
      name: 'cgs_purchases_total',
      help: 'Store purchases, by result (success, replayed, or the error identifier)',
      labelNames: ['result'] as const,
      registers,
    });
    this.credited = new Counter({
      name: 'cgs_resources_credited_total',
      help: 'Amount credited to user balances (committed), by resource kind (global: the community XP; scoped: quest event points) and reason',
      labelNames: ['kind', 'reason'] as const,
      registers,
    });
    this.mintJobs = new Counter({
      name: 'cgs_mint_jobs_total',
      help: 'Avatar mint jobs entering each state (requested, sending, minted, retry, failed)',
      labelNames: ['state'] as const,
      registers,
    });
    events.afterCommit('resource.credited', ({ kind, reason, amount }) =>
      this.credited?.inc({ kind, reason: CREDIT_REASONS.has(reason) ? reason : 'other' }, amount),
    );
    // A cluster worker answers the primary's collections (src/observability/cluster-metrics.ts) with
    // this registry, not prom-client's global one.
    if (cluster.isWorker) AggregatorRegistry.setRegistries([this.registry]);
  }

  /** Whether `authorization` is `Bearer <METRICS_TOKEN>` (false when no token is set), in constant time. */
  authorized(authorization: string | undefined): boolean {
    if (!this.tokenDigest || !authorization) return false;
    const match = /^Bearer +(\S+)$/i.exec(authorization);
    return match !== null && timingSafeEqual(digest(match[1]), this.tokenDigest);
  }

  /** The Prometheus text of the whole service: the cluster's figures in a worker, this process's otherwise. */
  scrape(): Promise<string> {
    return cluster.isWorker ? scrapeThroughPrimary() : this.registry.metrics();
  }

  /** Express middleware measuring every request (mounted first by `setupApp` when metrics are on). */
  readonly measureRequests = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.once('finish', () => {
      const path = (req as { route?: { path?: unknown } }).route?.path;
      // No route, or Nest's catch-all that answers 404 under the prefix (`/v1*path`): the API has no wildcard route.
      const route = typeof path === 'string' && !path.includes('*') ? req.baseUrl + path : UNMATCHED_ROUTE;
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const key = `${method} ${res.statusCode} ${route}`;
      let observer = this.requestObservers.get(key);
      if (observer === undefined) {
        observer = this.requests!.labels(method, route, String(res.statusCode));
        this.requestObservers.set(key, observer);
      }
      observer.observe((performance.now() - started) / 1000);
    });
    next();
  };

  /** Counts the outcome of a login (or registration) and hands it on unchanged. */
  login<T>(method: LoginMethod, work: Promise<T>): Promise<T> {
    const counter = this.logins;
    if (!counter) return work;
    return work.then(
      (value) => {
        counter.inc({ method, result: 'success' });
        return value;
      },
      (err: unknown) => {
        counter.inc({ method, result: outcome(err) });
        throw err;
      },
    );
  }

  /** Counts the outcome of a purchase (a replayed one apart) and hands it on unchanged. */
  purchase<T extends { replayed?: boolean }>(work: Promise<T>): Promise<T> {
    const counter = this.purchases;
    if (!counter) return work;
    return work.then(
      (value) => {
        counter.inc({ result: value.replayed ? 'replayed' : 'success' });
        return value;
      },
      (err: unknown) => {
        counter.inc({ result: outcome(err) });
        throw err;
      },
    );
  }

  /** An avatar mint job entered `state` (called once its change committed). */
  mintJob(state: MintJobState): void {
    this.mintJobs?.inc({ state });
  }
}

const digest = (s: string) => hash('sha256', s, 'buffer');

/** The error identifier of a failure (a catalogued case: bounded), `error` for anything unexpected. */
function outcome(err: unknown): string {
  return err instanceof DomainError ? err.definition.error : 'error';
}

/** The read replicas' lag and where the reads that tolerate lag ran (DATABASE_REPLICA_URLS). */
function replicaMetrics(replicas: ReplicaReads, registers: Registry[]): void {
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'Read replicas (DATABASE_REPLICA_URLS): how far each is behind the primary, in seconds (-1: not answering)',
    labelNames: ['replica'] as const,
    registers,
    collect() {
      for (const r of replicas.states()) this.set({ replica: r.replica }, r.healthy && r.lagMs !== null ? r.lagMs / 1000 : -1);
    },
  });
  // Counted by ReplicaReads; carried over as increments so the series is a counter.
  const reported = new Map<string, number>();
  new Counter({
    name: 'db_replica_reads_total',
    help: 'Reads that tolerate lag, by where they ran (a replica, or "primary") and result (served; fallback: a failed replica read run again on the primary)',
    labelNames: ['replica', 'result'] as const,
    registers,
    collect() {
      const add = (replica: string, result: string, total: number) => {
        const key = `${replica} ${result}`;
        this.inc({ replica, result }, total - (reported.get(key) ?? 0));
        reported.set(key, total);
      };
      for (const r of replicas.states()) {
        add(r.replica, 'served', r.reads);
        add(r.replica, 'fallback', r.fallbacks);
      }
      add('primary', 'served', replicas.readsOnPrimary);
    },
  });
}
