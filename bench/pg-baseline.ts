/**
 * The database's limit for one query: CONNECTIONS concurrent clients (a pg Pool of that size)
 * run SQL in a closed loop for DURATION seconds, no HTTP and no framework. Started by the bench
 * as a child process (so it competes for the CPU like the service does); prints one JSON line:
 * {rps, p50, p99, total}. Input: env PG_URL, PG_SQL, PG_PARAMS (JSON array of parameter arrays,
 * used round-robin), CONNECTIONS, DURATION.
 */
import pg from 'pg';

const env = process.env;
const sql = env.PG_SQL!;
const paramSets = JSON.parse(env.PG_PARAMS ?? '[[]]') as unknown[][];
const connections = Number(env.CONNECTIONS ?? 32);
const duration = Number(env.DURATION ?? 10) * 1000;
const pool = new pg.Pool({ connectionString: env.PG_URL, max: connections });

let i = 0;
const latencies: number[] = [];
const t0 = Date.now();
async function worker(): Promise<void> {
  while (Date.now() - t0 < duration) {
    const s = process.hrtime.bigint();
    await pool.query({ text: sql, values: paramSets[i++ % paramSets.length], name: 'bench' });
    latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
}
await Promise.all(Array.from({ length: connections }, worker));
const elapsed = (Date.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), total: latencies.length })}\n`);
await pool.end();
