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
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: LoadRequest[];
  timeout?: number;
}) => Promise<AutocannonResult>;
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
  /** Set by the bench with BENCH_PERF=1: millions of instructions per request, of the service's processes and of PostgreSQL's. */
  serviceMinstr?: number;
  dbMinstr?: number;
}

/** Runs `requests` (round-robin) on `connections` connections for `seconds`. */
export async function load(url: string, requests: LoadRequest[], seconds: number, connections: number, rate?: number): Promise<Measured> {
  if (connections === 0) return { rps: 0, p50: 0, p99: 0, total: 0, failed: 0, statuses: {} };
  const r = await autocannon({ url, connections, duration: seconds, requests, timeout: 10, ...(rate ? { overallRate: rate } : {}) });
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    failed: r.non2xx + r.errors + r.timeouts,
    statuses,
  };
}
