import net from 'node:net';

export const log = (s: string): void => {
  process.stdout.write(`${s}\n`);
};
export const since = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Percentile of a sorted array of numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
