/** The load generator (autocannon, typed) and the shape of one measured row. */
import { createRequire } from 'node:module';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: LoadRequest) => LoadRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
/** A run: its result when it ends, and an event per answer (autocannon's tracker). */
type AutocannonRun = Promise<AutocannonResult> & {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
};
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: LoadRequest[];
  timeout?: number;
}) => AutocannonRun;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
  statuses: Record<string, number>;
  /** Set by the bench: CPU ms of the database server per request. */
  dbMs?: number;
  /** Set by the bench: CPU ms of the bench database's own backends per request. */
  dbOwnMs?: number;
  /** Set by the bench: CPU ms of the service's processes per request. */
  serviceMs?: number;
  /** Set by the bench: the kernel's part of serviceMs (system time), ms per request. */
  serviceSysMs?: number;
  /** Set by the bench: minor page faults of the service's processes per request. */
  serviceFaults?: number;
  /** Set by the bench: CPU ms of the load generator (the bench's own process) per request. */
  loadMs?: number;
  /** Set by the bench with BENCH_PERF=1: millions of instructions per request, of the service's processes and of PostgreSQL's. */
  serviceMinstr?: number;
  dbMinstr?: number;
}

/**
 * The `q` quantile of `sorted` (nearest rank), to 0.01 ms. autocannon's own percentiles come from
 * a histogram of whole milliseconds, too coarse for answers of 1-2 ms (a p50 of 1 against 2 ms
 * decided whether a rank goal was met).
 */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] * 100) / 100;
}

/**
 * Runs `requests` (round-robin) on `connections` connections for `seconds`. p50 and p99 are of
 * the 2xx answers' times as the load generator measured them, to 0.01 ms; with a `rate` (paced
 * requests), autocannon's, which correct for the requests a slow answer held back.
 */
export async function load(url: string, requests: LoadRequest[], seconds: number, connections: number, rate?: number): Promise<Measured> {
  if (connections === 0) return { rps: 0, p50: 0, p99: 0, total: 0, failed: 0, statuses: {} };
  const run = autocannon({ url, connections, duration: seconds, requests, timeout: 10, ...(rate ? { overallRate: rate } : {}) });
  const times: number[] = [];
  if (!rate)
    run.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) times.push(ms);
    });
  const r = await run;
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const sorted = Float64Array.from(times).sort();
  return {
    rps: r.requests.total / r.duration,
    p50: rate ? r.latency.p50 : quantile(sorted, 0.5),
    p99: rate ? r.latency.p99 : quantile(sorted, 0.99),
    total: r.requests.total,
    failed: r.non2xx + r.errors + r.timeouts,
    statuses,
  };
}
